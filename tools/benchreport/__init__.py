"""benchreport - the pieces of tools/bench_report.py, which turns the raw outputs of tools/bench.sh
into BENCHMARKS.md and its chart: common.py (medians, formats, the time/JSON/meta readers, paired
ratios, goal rows), one module per group of sections (engine.py: 1, 2, 3, 5; tracecost.py: 6,
7, 12 with disturb.py; analyzer.py: 4, 8, 10, 11; inputs.py: 13 with inputxml.py, 14),
chart.py (the gnuplot chart), report.py (the sections in order, the goals table, a section rerun
alone merged into an earlier report) and grow.py (the analyzer sections' large inputs grown from
real fio outputs)."""
