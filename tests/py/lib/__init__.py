"""The tests' shared Python helpers, apart from the check modules in tests/py:
an nvtrace reader written from docs/trace-format.md (nvtrace_reader), one fio
JSON helper (fiojson), traces as `nvanalyze dump` rows (tracecsv), and the
compare-and-print tail of the text readers' value checks (valuecheck), and
the copied fixtures' SOURCES.md rows against their files (sources).  The
check modules import them as `from lib import fiojson`; the shell tests run
the ones with a command line as `pytool lib/NAME ARGS...`."""
