"""hostile_json.py FIXTURE OUT NAME: FIXTURE (a fio JSON) with its jobs named
NAME (UTF-8, invalid bytes kept as they are through surrogateescape)."""
import json
import sys

with open(sys.argv[1], encoding="utf-8") as f:
    doc = json.load(f)
name = sys.argv[3].encode("utf-8", "surrogateescape")
for job in doc["jobs"]:
    job["jobname"] = "@@NAME@@"
text = json.dumps(doc, ensure_ascii=False).encode("utf-8")
# invalid UTF-8 goes into the JSON text as raw bytes: what a broken writer does
quoted = json.dumps(name.decode("utf-8", "surrogateescape"), ensure_ascii=True)
raw = name.replace(b"\\", b"\\\\").replace(b'"', b'\\"').replace(b"\n", b"\\n")
raw = raw.replace(b"\t", b"\\t").replace(b"\r", b"\\r")
ok = all(c >= 0x20 or c in (9, 10, 13) for c in name)
with open(sys.argv[2], "wb") as f:
    f.write(text.replace(b'"@@NAME@@"', b'"' + raw + b'"' if ok else quoted.encode()))
