/*
 * report_md.h - DIR/report.md of `nvanalyze -o`: the links to the tables,
 * the comparison, the figures of each block, the trace sections with each
 * traced run's figures.
 */
#ifndef NV_ANALYZE_REPORT_MD_H
#define NV_ANALYZE_REPORT_MD_H

#include <stdbool.h>
#include <stdio.h>

#include "analyze/figures/figset.h"

/*
 * Write the page into f (opened by outdir.c); rendered: whether the PNGs
 * exist (else a line says how to make them).
 * Return: 0, or -ENOMEM (the page is incomplete).
 */
int nv_report_md_put(FILE *f, const struct nv_figset *o, bool rendered);

#endif
