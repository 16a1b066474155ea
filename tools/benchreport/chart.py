"""The benchmark report's chart: gnuplot bar charts of the files and passthrough IOPS and of the
bytes per IO, and the RSS curves, in one PNG."""
import os
import subprocess
import sys


def write_chart(wd, chart, png):
    """Bar charts (files, VM, bytes/IO) and the RSS curves in one PNG."""
    if not chart:
        return None
    gp = []
    plots = []
    labels = {"null": "fio null", "uring": "fio io_uring", "uring_log": "io_uring+lat log",
              "nv_off": "nvengine", "nv_on": "nvengine+trace", "nv_off1": "nvengine, 1 io-wq",
              "nv_on1": "nvengine+trace, 1 io-wq", "io_uring_cmd": "fio io_uring_cmd"}
    for key, title in (("files", "tmpfs file, 4k randread: IOPS (k)"), ("vm", "passthrough in TCG "
                                                                              "guest: IOPS (k)")):
        rows = chart.get(key)
        if not rows:
            continue
        cfgs = []
        for qd, cfg, v in rows:
            if cfg not in cfgs:
                cfgs.append(cfg)
        dat = os.path.join(wd, "chart-%s.dat" % key)
        with open(dat, "w") as f:
            for c in cfgs:
                v = {qd: val for qd, cc, val in rows if cc == c}
                f.write('"{}" {} {}\n'.format(labels.get(c, c), (v.get(1) or 0) / 1e3,
                                               (v.get(32) or 0) / 1e3))
        plots.append('set title "{}"; set style data histograms; set style histogram '
                     'clustered gap 1; set style fill solid 0.8 border -1; set xtics rotate '
                     'by -25 font ",8"; set key top right; set yrange [0:*]; unset logscale '
                     'y; set key vertical maxrows auto; plot "{}" using 2:xtic(1) title "QD '
                     '1", "" using 3 title "QD 32"'.format(title, dat))
    if chart.get("size"):
        dat = os.path.join(wd, "chart-size.dat")
        with open(dat, "w") as f:
            for r in chart["size"]:
                f.write('"{}" {} {} {} {}\n'.format(*r))
        plots.append('set title "bytes per IO (log scale)"; set style data histograms; set style '
                     'histogram clustered gap 1; set style fill solid 0.8 border -1; set xtics '
                     'rotate by -25 font ",8"; set logscale y; set yrange [1:1000]; set key top '
                     'left horizontal maxrows 2 font ",8"; plot "{}" using 2:xtic(1) title '
                     '"nv_trace L1", "" using 3 title "nv_trace L6", "" using 4 title "fio logs '
                     '(text)", "" using 5 title "fio logs (compressed)"'.format(dat))
    if chart.get("rss"):
        dat = os.path.join(wd, "chart-rss.dat")
        with open(dat, "w") as f:
            for i, pts in enumerate(chart["rss"]):
                for t, v in pts:
                    f.write("{} {}\n".format(t, v / 1024))
                f.write("\n\n")
        plots.append('set title "job resident memory (MiB) over time (s)"; unset logscale y; set '
                     'yrange [0:*]; set xtics norotate font ",9"; set key top left vertical '
                     'maxrows auto; set style data lines; plot "{0}" index 0 using 1:2 with lines '
                     'lw 2 title "nvengine + nv_trace", "{0}" index 1 using 1:2 with lines lw 2 '
                     'title "fio io_uring + write_lat_log"'.format(dat))
    if not plots:
        return None
    cols = 2 if len(plots) > 1 else 1
    nrows = (len(plots) + cols - 1) // cols
    term = ("pngcairo" if "pngcairo" in subprocess.run(["gnuplot", "-e", "set terminal"],
                                                        capture_output=True, text=True).stdout
            + subprocess.run(["gnuplot", "-e", "set terminal"], capture_output=True,
                             text=True).stderr else "png")
    gp.append('set terminal {} size {},{} font ",10"'.format(term, 1100, 420 * nrows))
    gp.append('set output "{}"'.format(png))
    gp.append("set multiplot layout {},{}".format(nrows, cols))
    gp.append("set grid ytics")
    gp.append("set termoption noenhanced")
    gp.extend(plots)
    gp.append("unset multiplot")
    script = os.path.join(wd, "chart.gp")
    with open(script, "w") as f:
        f.write("\n".join(gp) + "\n")
    r = subprocess.run(["gnuplot", script], capture_output=True, text=True)
    if r.returncode:
        sys.stderr.write("bench_report: gnuplot failed: {}\n".format(r.stderr.strip()[-500:]))
        return None
    return png
