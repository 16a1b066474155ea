# nvanalyze figure style, loaded by every script nvanalyze -o DIR writes
# (copied into DIR, so DIR is self-contained).  A script sets `out` (the file
# name without extension) and loads this file; the format is PNG unless
# `fmt` is given:
#     gnuplot cdf_job_read.gp                    -> cdf_job_read.png
#     gnuplot -e "fmt='svg'" cdf_job_read.gp     -> cdf_job_read.svg
# Edit here to restyle every figure; edit a script for one figure.

if (!exists("fmt")) fmt = "png"
if (!exists("out")) out = "figure"
if (fmt eq "svg") {
    set terminal svg size 960,600 dynamic enhanced font "DejaVu Sans,13" \
        linewidth 1.5 background rgb "white"
} else {
    set terminal pngcairo size 1440,900 enhanced font "DejaVu Sans,19" \
        linewidth 2 background rgb "white"
}
set output out.".".fmt
set encoding utf8
# No SIGFPE handler set and reset around each expression read from a data
# file (two system calls a point: half the CPU of a 64-curve figure).  x86
# and arm64 mask floating-point traps, and gnuplot checks integer division.
set datafile nofpe_trap

# Frame, ticks and grid: light, out of the way of the data.
set border 3 lw 1 lc rgb "#404040"
set tics nomirror out scale 0.75 textcolor rgb "#202020"
set grid xtics ytics mxtics mytics lt 1 lw 1 lc rgb "#e0e0e0", lt 1 lw 0.5 lc rgb "#f0f0f0"
set key opaque box lc rgb "#c0c0c0" samplen 2.5 spacing 1.15 width 1
# Font sizes for titles and for the numbers written on bars.
title_font = (fmt eq "svg") ? ",15" : ",22"
label_font = (fmt eq "svg") ? ",9" : ",13"
change_font = (fmt eq "svg") ? ",10" : ",14"
key_font = (fmt eq "svg") ? ",9" : ",14"
set title font title_font offset 0,-0.3
set xlabel offset 0,0.3
set ylabel offset 0.8,0

# Colour-blind safe line colours (Okabe-Ito), one per run in command-line order.
set linetype 1 lc rgb "#0072B2" lw 2 pt 7 ps 0.8
set linetype 2 lc rgb "#D55E00" lw 2 pt 5 ps 0.8
set linetype 3 lc rgb "#009E73" lw 2 pt 9 ps 0.8
set linetype 4 lc rgb "#CC79A7" lw 2 pt 11 ps 0.8
set linetype 5 lc rgb "#E69F00" lw 2 pt 13 ps 0.8
set linetype 6 lc rgb "#56B4E9" lw 2 pt 15 ps 0.8
set linetype 7 lc rgb "#000000" lw 2 pt 3 ps 0.8
set linetype 8 lc rgb "#999999" lw 2 pt 1 ps 0.8
set linetype cycle 8

# Band and marker colours for the latency-over-time figures.
band_fill = "#a6cee3"
p50_color = "#1f78b4"
p999_color = "#e31a1c"
max_color = "#6a3d9a"
