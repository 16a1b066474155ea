# Host side of cases/20-nvengine-files.sh: the engine's fio JSON parses, has
# no job error and moved data.  Nothing to check when the case skipped.
. "$TOP/tests/vm/host-lib.sh"

for j in file-randrw-verify file-write-read; do
	[ -e "$VMRES/$j.json" ] || continue
	check_fio_json "$j"
done
