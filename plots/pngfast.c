/*
 * pngfast.c - libnvpngfast.so: preloaded into the gnuplot that renders the
 * figures of `nvanalyze -o` (LD_PRELOAD, set by analyze/figures/plot.c), it
 * makes the PNG encoder of gnuplot's pngcairo terminal cheaper without
 * changing a pixel.
 *
 * Why: cairo writes a PNG with libpng's defaults, which try all five row
 * filters on every row and deflate at level 6.  On this project's figures
 * (1440 x 900, mostly flat colour) that encoding is about three quarters of
 * gnuplot's CPU for a figure (perf: libpng's filter search 48%, zlib 30%).
 * One filter (none) and deflate level 1 cut a figure's PNG from about
 * 45 ms to about 20 ms of CPU, the file about a third larger (BENCHMARKS.md,
 * section 11).  The image is the same: a viewer, or tests/py/png_pixels.py,
 * decodes the same pixels as from gnuplot's own encoding.
 *
 * How: cairo calls png_write_info() once per image, after png_set_IHDR()
 * and before any image data; this definition comes first in the lookup
 * (LD_PRELOAD), sets the filter and the level on the write struct and
 * calls libpng's own.  Nothing is linked against libpng: its functions are
 * found with dlsym(RTLD_NEXT) in the process that already loaded it, so a
 * gnuplot without libpng never calls this and loads nothing more.
 *
 * Also the image each figure is drawn on (1440 x 900 x 4 B, 5 MB) comes
 * from the heap: glibc maps an allocation that large on its own and
 * unmaps it when freed, so every figure's image paid a page fault per
 * 4 KiB page (about 7.5 us each on this project's virtual machines) for a
 * gnuplot that renders figure after figure.  The thresholds below keep
 * freed images in the heap for the next figure; the peak is the same (one
 * image at a time), only the faults go.
 */
#include <dlfcn.h>
#include <malloc.h>
#include <png.h>

/*
 * At load: allocations up to 64 MiB from the heap, and at most 128 MiB
 * free at its top before it is given back.  Return: nothing.
 */
__attribute__((constructor)) static void keep_images_in_heap(void)
{
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 128 << 20);
}

typedef void write_info_fn(png_structrp, png_const_inforp);
typedef void set_filter_fn(png_structrp, int, int);
typedef void set_level_fn(png_structrp, int);

/*
 * libpng's function name (the next definition after this library's).
 * Return: its address, or NULL when no library loaded defines it.
 */
static void *next_fn(const char *name)
{
	return dlsym(RTLD_NEXT, name);
}

/*
 * png_write_info, as libpng's, after one filter and deflate level 1 are set
 * on png_ptr (each only when libpng has the setter).
 * Return: nothing (libpng reports errors through png_ptr's handlers).
 */
void png_write_info(png_structrp png_ptr, png_const_inforp info_ptr)
{
	write_info_fn *real = (write_info_fn *)next_fn("png_write_info");
	set_filter_fn *filter = (set_filter_fn *)next_fn("png_set_filter");
	set_level_fn *level = (set_level_fn *)next_fn("png_set_compression_level");

	if (filter)
		filter(png_ptr, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
	if (level)
		level(png_ptr, 1);
	if (real)
		real(png_ptr, info_ptr);
}
