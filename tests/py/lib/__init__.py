"""The tests' shared Python helpers, apart from the check modules in tests/py:
an nvtrace reader written from docs/trace-format.md (nvtrace_reader), one fio
JSON helper (fiojson), and traces as `nvanalyze dump` rows (tracecsv).  The
check modules import them as `from lib import fiojson`; the shell tests run
the ones with a command line as `pytool lib/NAME ARGS...`."""
