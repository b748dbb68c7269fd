/* util.h: errors, allocation, buffers, unit parsing and formatting, JSON
 * output, text tables, statistics of samples and small helpers shared by
 * every module.
 *
 * Ownership: a struct sn_buf owns its bytes until sn_buf_detach() hands them
 * to the caller; sn_yaml_load() fills a document the caller releases with
 * sn_yaml_doc_release(). Nothing here keeps global state except the OOM
 * handler.
 *
 * Zeroed is released: every struct here that has a release function
 * (sn_buf, sn_table, sn_yaml_doc, sn_csv) may be released when it is all
 * zero ({0}, calloc) and is all zero again, or freshly initialised, after
 * its release; a function that fails leaves its output released. So a
 * caller zeroes what it will release, releases it on every path, and
 * keeps no flag to know whether it was filled.
 *
 * To add a unit kind: 1. enum sn_unit_kind  2. the suffix table in units.c
 * 3. sn_unit_format()  4. a case in tests/unit/test-util.c.
 */
#ifndef SN_UTIL_H
#define SN_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define SN_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define SN_UNUSED __attribute__((unused))
#else
#define SN_PRINTF(f, a)
#define SN_UNUSED
#endif

#define SN_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- error codes and struct sn_error ---------------------------------- */

enum sn_code {
    SN_OK = 0,
    SN_EINPUT,    /* bad input: spec, arguments, file contents (exit 2) */
    SN_ENOTFOUND, /* a named thing does not exist (exit 2) */
    SN_ENOMEM,    /* allocation failed or a size cap was hit (exit 3) */
    SN_EIO,       /* file or device I/O failed (exit 3) */
    SN_ERUNTIME,  /* MPI, CUDA, NCCL, SQLite or similar failed (exit 3) */
    SN_ENOTSUP,   /* not supported on this build or machine (exit 3) */
    SN_ETIMEOUT,  /* a deadline passed (exit 3) */
    SN_ECHECK,    /* a check found a failure (exit 1) */
};

#define SN_ERROR_MSG_MAX 1024

/* One error: a code and a one-line, lowercase message that points at the
 * input ("file:line:col: what is wrong (what was expected)"). */
struct sn_error {
    int code;
    char msg[SN_ERROR_MSG_MAX];
};

/* Fill err (when not NULL) with code and a printf-style message; returns
 * code so callers can write `return sn_error_set(err, SN_EINPUT, ...)`. */
int sn_error_set(struct sn_error *err, int code, const char *fmt, ...)
    SN_PRINTF(3, 4);
int sn_error_vset(struct sn_error *err, int code, const char *fmt, va_list ap);
/* Same, prefixed with "file:line:col: " (line and col are 1-based; a zero
 * col is left out, a zero line leaves only "file: "). */
int sn_error_at(struct sn_error *err, int code, const char *file, int line,
                int col, const char *fmt, ...) SN_PRINTF(6, 7);
/* Prepend "prefix: " to an already set message. */
void sn_error_prefix(struct sn_error *err, const char *prefix);
/* Clear err to SN_OK with an empty message. */
void sn_error_clear(struct sn_error *err);
/* The process exit status the CLI uses for a library code. */
int sn_exit_code(int code);
/* A short name for a code ("bad input", "i/o error", ...). */
const char *sn_code_name(int code);

/* ---- allocation -------------------------------------------------------- */

/* Allocation that never returns NULL: on failure the OOM handler runs
 * (by default it writes one line to stderr and aborts). A library that
 * cannot make progress without memory has no better choice (redis, git). */
void *sn_xmalloc(size_t size);
void *sn_xcalloc(size_t n, size_t size);
void *sn_xrealloc(void *p, size_t size);
char *sn_xstrdup(const char *s);
char *sn_xstrndup(const char *s, size_t n);
/* Set the function called when an allocation fails, before the abort (a
 * handler that returns is followed by abort()); NULL restores the
 * default, which says nothing. */
void sn_set_oom_handler(void (*fn)(size_t size));
/* Grow *items so that it holds at least `need` elements of `size` bytes;
 * *cap is updated. Aborts through the OOM handler on overflow. */
void sn_grow(void **items, size_t *cap, size_t need, size_t size);

#define SN_GROW(ptr, cap, need)                                                \
    sn_grow((void **)&(ptr), &(cap), (need), sizeof(*(ptr)))

/* ---- growable byte buffer --------------------------------------------- */

struct sn_buf {
    char *data; /* always NUL-terminated when len > 0 or after init */
    size_t len;
    size_t cap;
};

/* Ready to use without a call: `struct sn_buf b = SN_BUF_INIT;` is the
 * same as sn_buf_init(&b). An all-zero buffer ({0}, calloc) can be
 * appended to and released too; only its data is NULL until the first
 * append. */
extern char sn__buf_empty[1];
#define SN_BUF_INIT                                                            \
    {                                                                          \
        sn__buf_empty, 0, 0                                                    \
    }

void sn_buf_init(struct sn_buf *b);
void sn_buf_release(struct sn_buf *b);
void sn_buf_reset(struct sn_buf *b);
void sn_buf_append(struct sn_buf *b, const void *data, size_t len);
void sn_buf_puts(struct sn_buf *b, const char *s);
void sn_buf_putc(struct sn_buf *b, char c);
void sn_buf_printf(struct sn_buf *b, const char *fmt, ...) SN_PRINTF(2, 3);
void sn_buf_vprintf(struct sn_buf *b, const char *fmt, va_list ap);
/* Hand the bytes to the caller (free() them); the buffer is left empty. */
char *sn_buf_detach(struct sn_buf *b, size_t *len);

/* ---- strings ------------------------------------------------------------ */

/* Copy with truncation; always NUL-terminates when size > 0. Returns the
 * length of src (like strlcpy). */
size_t sn_strlcpy(char *dst, const char *src, size_t size);
bool sn_streq(const char *a, const char *b);
/* The next token of a string split in place on one delimiter: empty
 * tokens are skipped, each token is NUL-terminated where its delimiter
 * was, and NULL comes at the end. *cursor starts at the string and is
 * advanced (the reentrant strtok, which banned.h leaves out). */
char *sn_tok_next(char **cursor, char delim);
bool sn_strcaseeq(const char *a, const char *b);
bool sn_startswith(const char *s, const char *prefix);
/* Edit distance between two short strings (case-insensitive); large inputs
 * are capped at 64 characters. */
int sn_edit_distance(const char *a, const char *b);
/* The candidate closest to `word`, or NULL when none is close enough to be a
 * plausible misspelling. candidates is NULL-terminated. */
const char *sn_suggest(const char *word, const char *const *candidates);
/* Same over an array of n strings spaced `stride` bytes apart starting at
 * `first` (for tables of structs whose first member is a name). */
const char *sn_suggest_strided(const char *word, const void *first, size_t n,
                               size_t stride);
/* Refuse a name none of n names matched (laid out as for
 * sn_suggest_strided): SN_EINPUT with "unknown WHAT 'name' (did you mean
 * 'x'?)" when one is near, else "(expected a, b or c)" naming them all in
 * table order, so the list follows the table. Returns SN_EINPUT. */
int sn_unknown_name(struct sn_error *err, const char *what, const char *name,
                    const void *first, size_t n, size_t stride);

/* ---- text from the machine -------------------------------------------- */

/* Strings read from the machine (sysfs, procfs, host names, library and
 * driver versions) or from documents made elsewhere are cleaned where
 * they are read: valid UTF-8 is kept; each byte of an invalid sequence
 * and each control character (C0, DEL and C1: what a terminal acts on,
 * what XML forbids) becomes the four characters "\xNN". Clean text
 * prints as itself and goes into JSON, XML and the store unchanged, and
 * cleaning it again changes nothing. */
#define SN_CLEAN_LINES 1 /* keep newlines and tabs (multi-line text) */

/* Append len bytes of s, cleaned. */
void sn_buf_put_clean(struct sn_buf *b, const char *s, size_t len, int flags);
/* Clean src into dst (size bytes), cut before a character or escape that
 * would not fit; always NUL-terminated. Returns dst. */
char *sn_str_clean(char *dst, size_t size, const char *src, int flags);
/* Clean the NUL-terminated string in s, a buffer of size bytes. */
void sn_str_clean_in(char *s, size_t size, int flags);
/* A heap copy of s, cleaned. */
char *sn_xstrdup_clean(const char *s, int flags);
/* Whether s is clean already. */
bool sn_str_is_clean(const char *s, int flags);
/* The length (1 to 4) of the UTF-8 character starting at s, or 0 when
 * the bytes there (avail of them) are not one. */
size_t sn_utf8_len(const unsigned char *s, size_t avail);

/* ---- escaping for output (escape.c) ----------------------------------------
 * Every string from input or from the machine enters an output through
 * the escaper of the output's format, and nowhere else: each makes it
 * clean first (control characters, line breaks included, and invalid
 * UTF-8 as the text "\xNN"), then quotes what the format gives a meaning
 * to, so the string stays one value there. */
enum sn_esc {
    SN_ESC_TERM,         /* a terminal or text file: clean text */
    SN_ESC_XML,          /* HTML, SVG, XML text and attribute values */
    SN_ESC_XML_LINES,    /* XML element text that keeps newlines, tabs */
    SN_ESC_DOT,          /* the inside of a DOT quoted string */
    SN_ESC_YAML_COMMENT, /* the rest of a YAML comment line */
    SN_ESC_YAML,         /* a YAML double-quoted scalar, quotes included */
    SN_ESC_PROMQL,       /* the inside of a PromQL string literal (the
                            exposition's label values keep metrics.c's
                            own escaper: its parser takes no \u) */
    SN_ESC_CSV,          /* one CSV field (RFC 4180), quoted when needed */
    SN_ESC_JSON,         /* a JSON string, quotes included */
};
/* Append s (NULL: "") escaped for the format how. */
void sn_buf_put_esc(struct sn_buf *b, enum sn_esc how, const char *s);
/* A heap copy of s escaped for how; the caller frees it. */
char *sn_xstrdup_esc(enum sn_esc how, const char *s);

/* ---- units --------------------------------------------------------------- */

enum sn_unit_kind {
    SN_UNIT_COUNT,       /* plain number; k/M/G suffixes allowed (1e3..) */
    SN_UNIT_RATIO,       /* plain number or percent ("95%" = 0.95) */
    SN_UNIT_BYTES,       /* B, kB/KB, MB, GB, TB, PB (1e3) and KiB..PiB */
    SN_UNIT_BANDWIDTH,   /* bytes/s: GB/s, TB/s; bits/s: Gbps, Gb/s */
    SN_UNIT_POWER,       /* W, kW, MW */
    SN_UNIT_VOLTAGE,     /* V, kV */
    SN_UNIT_TIME,        /* ns, us, ms, s, min, h, d */
    SN_UNIT_LENGTH,      /* mm, cm, m, km */
    SN_UNIT_FLOPS,       /* FLOPS, GFLOPS, TFLOPS, PFLOPS (also /s) */
    SN_UNIT_TEMPERATURE, /* a temperature difference: K, C (same step) */
    SN_UNIT_FLOW,        /* L/min, m3/h, m3/s; stored as m^3/s */
    SN_UNIT_FREQUENCY,   /* Hz, kHz, MHz, GHz */
};

/* Parse a quantity as people write it ("400Gbps", "900 GB/s", "120kW",
 * "5min", "2.5m") into SI units (bytes/s, W, V, s, m, FLOP/s, K, m^3/s,
 * Hz). A bare number is accepted for COUNT and RATIO; for other kinds only
 * when allow_bare is true, in which case it is taken as already SI.
 * Returns SN_OK or SN_EINPUT with a message naming what was expected. */
int sn_unit_parse(const char *text, enum sn_unit_kind kind, bool allow_bare,
                  double *out, struct sn_error *err);
/* Parse a message size the way nccl-tests does: a number with an optional
 * K, M or G suffix meaning 2^10, 2^20, 2^30 ("16G", "8", "1M"). */
int sn_unit_parse_size(const char *text, uint64_t *out, struct sn_error *err);
/* Format a SI value with the unit people use for the kind, three
 * significant figures ("400 Gb/s" is written "50 GB/s": bandwidth is
 * bytes). Writes at most size bytes; returns buf. */
char *sn_unit_format(double value, enum sn_unit_kind kind, char *buf,
                     size_t size);
/* Format a stored value by its unit's name as the store keeps it ("B/s",
 * "s", "FLOP/s" and "B" as sn_unit_format, "23.4 MB/s"; any other unit
 * with four significant figures). Returns buf. */
char *sn_unit_format_named(double value, const char *unit, char *buf,
                           size_t size);
/* The name of a kind, for messages ("bandwidth", "power"). */
const char *sn_unit_kind_name(enum sn_unit_kind kind);

/* ---- numbers ---------------------------------------------------------------
 */

/* Parse a whole decimal number within [min, max]; SN_EINPUT otherwise. */
int sn_parse_long(const char *text, long long min, long long max,
                  long long *out, struct sn_error *err);
/* Parse a finite double. */
int sn_parse_double(const char *text, double *out, struct sn_error *err);
/* Format a double with %.*g without locale surprises and without "-0". */
char *sn_fmt_double(double v, int digits, char *buf, size_t size);
/* Format a count with thousands separators ("12,501"), as reports print
 * them; returns buf. */
char *sn_fmt_count(size_t v, char *buf, size_t size);

/* ---- JSON output
 * --------------------------------------------------------------- */

#define SN_JSON_MAX_DEPTH 64

/* A streaming JSON writer into a buffer, with two-space indentation when
 * pretty. Keys keep the order they are written in (deterministic). */
struct sn_json {
    struct sn_buf *out;
    int depth;
    bool pretty;
    bool first[SN_JSON_MAX_DEPTH];
    bool after_key;
};

void sn_json_init(struct sn_json *j, struct sn_buf *out, bool pretty);
void sn_json_obj_begin(struct sn_json *j);
void sn_json_obj_end(struct sn_json *j);
void sn_json_arr_begin(struct sn_json *j);
void sn_json_arr_end(struct sn_json *j);
void sn_json_key(struct sn_json *j, const char *key);
void sn_json_str(struct sn_json *j, const char *s);
void sn_json_num(struct sn_json *j, double v); /* non-finite -> null */
void sn_json_int(struct sn_json *j, long long v);
void sn_json_bool(struct sn_json *j, bool v);
void sn_json_null(struct sn_json *j);
/* Convenience: key then value. */
void sn_json_kstr(struct sn_json *j, const char *key, const char *s);
void sn_json_knum(struct sn_json *j, const char *key, double v);
void sn_json_kint(struct sn_json *j, const char *key, long long v);
void sn_json_kbool(struct sn_json *j, const char *key, bool v);
/* Append s to b as a JSON string literal, quotes included. */
void sn_json_escape(struct sn_buf *b, const char *s);

/* ---- JSON input (json-read.c) ----------------------------------------- */

struct json_t; /* jansson's json_t */

/* Parse len bytes of text, named what in messages, into a jansson
 * document (*out, the caller's: json_decref; NULL on failure). Refused
 * with a located SN_EINPUT ("what:line:col: ..."): nesting deeper than
 * max_depth (0: no cap of ours), invalid JSON, duplicate keys, NUL in
 * strings. Size caps are the caller's. */
int sn_json_read(const char *what, const char *text, size_t len, int max_depth,
                 struct json_t **out, struct sn_error *err);

/* ---- text tables ------------------------------------------------------------
 */

#define SN_TABLE_MAX_COLS 32

/* A text table: columns with headers and alignment, rows of strings.
 * Rendered with columns padded to the widest cell. */
struct sn_table {
    int ncols;
    const char *header[SN_TABLE_MAX_COLS];
    bool right[SN_TABLE_MAX_COLS];
    char **cells; /* nrows * ncols, owned */
    size_t nrows;
    size_t cap;
    const char *prefix; /* written before every line ("# " or "") */
};

/* An all-zero table is one initialised with no prefix. */
void sn_table_init(struct sn_table *t, const char *prefix);
/* Add a column; right-aligned when right is true (numbers). */
void sn_table_col(struct sn_table *t, const char *header, bool right);
/* Start a new row; then call sn_table_cell() once per column. */
void sn_table_row(struct sn_table *t);
void sn_table_cell(struct sn_table *t, const char *fmt, ...) SN_PRINTF(2, 3);
void sn_table_render(const struct sn_table *t, struct sn_buf *out);
void sn_table_release(struct sn_table *t);

/* ---- files
 * ----------------------------------------------------------------------- */

/* Largest file sn_read_file() accepts unless told otherwise (64 MiB). */
#define SN_FILE_MAX ((size_t)64 << 20)

/* Read a whole file into a NUL-terminated heap buffer (caller frees).
 * Fails with SN_EINPUT when it is larger than max bytes or the path names
 * nothing (missing, too long, a directory), SN_EIO when it cannot be
 * read. "-" reads standard input. */
int sn_read_file(const char *path, size_t max, char **data, size_t *len,
                 struct sn_error *err);
/* Read a small file the machine describes itself in (a sysfs or procfs
 * attribute) without ever blocking: opened non-blocking, and only a
 * regular file is read (a FIFO or device planted in the tree is not).
 * Returns a NUL-terminated heap buffer (caller frees), or NULL (errno
 * set) when the file is missing, not regular, unreadable or larger than
 * max bytes. */
char *sn_read_attr(const char *path, size_t max, size_t *len);

/* One output of a command: where it goes and its bytes. */
struct sn_output {
    const char *path;
    const void *data;
    size_t len;
};

/* Write a command's outputs as a set. What each path means:
 *  - "-": standard output;
 *  - a regular file, or nothing yet: written to a temporary file in the
 *    same directory (".sn-PID-XXXXXX.tmp", short whatever the name),
 *    fsynced and renamed over it; a replaced file keeps its mode;
 *  - a character device, FIFO or socket: written in place (a device node
 *    is never replaced by a file);
 *  - a symbolic link: followed to what it names, which is then written as
 *    above (the link stays);
 *  - a directory or block device: refused (SN_EINPUT).
 * Every temporary is written before any target is touched and the renames
 * come last, together: when one output fails, no file of the set is
 * replaced and no temporary is left. Temporaries that killed writers left
 * in a directory are removed when it is next written to. Two outputs
 * naming one file are refused. SN_EINPUT for a path that cannot name an
 * output (empty, too long, a loop of links), SN_EIO for a write that
 * fails. */
int sn_write_outputs(const struct sn_output *outs, size_t n,
                     struct sn_error *err);
/* Check, before any work, that sn_write_outputs() could write paths:
 * each names an output as above and its directory exists and is
 * writable. Nothing is written. */
int sn_outputs_check(const char *const *paths, size_t n, struct sn_error *err);
/* One output: sn_write_outputs() of one. */
int sn_write_file_atomic(const char *path, const void *data, size_t len,
                         struct sn_error *err);

/* ---- YAML documents with positions
 * -------------------------------------------- */

enum sn_yaml_type { SN_YAML_SCALAR, SN_YAML_MAP, SN_YAML_SEQ };

/* Caps on what a YAML input may hold, checked while loading. */
#define SN_YAML_MAX_DEPTH 32
#define SN_YAML_MAX_NODES 1000000
#define SN_YAML_MAX_BYTES ((size_t)16 << 20)

/* One node of a loaded YAML document. Maps keep their pairs in file order:
 * keys[i] (a scalar node) maps to items[i]. Lines and columns are 1-based. */
struct sn_yaml {
    enum sn_yaml_type type;
    int line, col;
    char *value; /* scalar text, NUL-terminated */
    bool quoted; /* the scalar was quoted in the file */
    size_t n;    /* items (seq), pairs (map) */
    struct sn_yaml **items;
    struct sn_yaml **keys; /* maps only */
    size_t cap;            /* private: allocated length of items/keys */
};

/* A loaded document and the name it is reported under. */
struct sn_yaml_doc {
    char *file;
    struct sn_yaml *root; /* NULL for an empty document */
    size_t nodes;
};

/* Parse YAML text (len bytes) into *doc. Aliases and anchors, multiple
 * documents, duplicate keys, non-scalar keys, binary bytes and inputs over
 * the caps above are refused with a located SN_EINPUT. On failure *doc is
 * left empty. The caller releases it with sn_yaml_doc_release(). */
int sn_yaml_parse(const char *file, const char *text, size_t len,
                  struct sn_yaml_doc *doc, struct sn_error *err);
/* Read and parse a file. */
int sn_yaml_load(const char *path, struct sn_yaml_doc *doc,
                 struct sn_error *err);
void sn_yaml_doc_release(struct sn_yaml_doc *doc);
/* The value for key in a map, or NULL. */
struct sn_yaml *sn_yaml_get(const struct sn_yaml *map, const char *key);
/* Name of a node type for messages ("a mapping", "a list", "a scalar"). */
const char *sn_yaml_type_name(enum sn_yaml_type type);

/* ---- CSV ---------------------------------------------------------------- */

/* A parsed CSV file (RFC 4180 quoting): rows of fields, row 0 the header
 * when there is one. The caller releases it with sn_csv_release(). */
struct sn_csv {
    size_t nrows;
    size_t *nfields;
    char ***fields;
    int *lines; /* file line where each row starts */
};

int sn_csv_parse(const char *file, const char *text, size_t len,
                 size_t max_rows, struct sn_csv *csv, struct sn_error *err);
void sn_csv_release(struct sn_csv *csv);
/* Index of a header field, or -1. */
int sn_csv_column(const struct sn_csv *csv, const char *name);

/* ---- statistics of samples (stats.c) -------------------------------------
 */

/* Summary of repeated samples, in the samples' unit: the one summary a
 * measured result carries, whether bench just took it or the store read
 * it back. mad is the raw median absolute deviation; sigma = 1.4826 x mad
 * is the robust estimate of one sample's standard deviation under normal
 * noise (Rousseeuw & Croux 1993). Percentiles interpolate linearly
 * between order statistics (numpy's default, Hyndman-Fan type 7). The 95%
 * confidence interval is the distribution-free one for the median, from
 * order statistics and the binomial distribution; NaN when there are
 * fewer than 6 samples. The store keeps n, median, mean, min, max, mad
 * and stddev; a result read back without its samples has the others 0
 * (the interval NaN). */
struct sn_stats {
    size_t n;
    double median, mean, min, max, mad;
    double stddev; /* sample standard deviation (n - 1); 0 for one */
    double cv;     /* stddev / |mean|; NaN when the mean is 0 */
    double p5, p90, p95, p99, p999;
    double ci_lo, ci_hi; /* 95% CI of the median */
};

/* Fill st from n samples (any order; x is not modified). n may be 0:
 * every figure 0, the interval NaN. */
void sn_stats_compute(const double *x, size_t n, struct sn_stats *st);
/* The median of n values; sorts x in place. 0 when n is 0. */
double sn_stats_median(double *x, size_t n);
/* The robust standard deviation 1.4826 x MAD of n values around their
 * median; x is reordered. */
double sn_stats_sigma(double *x, size_t n);
/* The p-quantile (0..1) of n sorted values, linear interpolation; NaN
 * when n is 0. */
double sn_stats_quantile(const double *sorted, size_t n, double p);
/* 0-based indices lo, hi of the order statistics bounding the
 * distribution-free confidence interval of the median at `level` (0.95):
 * the narrowest symmetric pair whose binomial coverage reaches level.
 * Returns false when n is too small for any pair to reach it. */
bool sn_stats_median_ci(size_t n, double level, size_t *lo, size_t *hi);
/* Half-width of the CI relative to the median: max(median - lo, hi -
 * median) / median; +inf when the CI is undefined. */
double sn_stats_ci_rel(const struct sn_stats *st);

#define SN_STATS_MAD_TO_SIGMA 1.4826

/* ---- time and hashing
 * --------------------------------------------------------------- */

/* Monotonic time in seconds. */
double sn_now(void);
/* 64-bit FNV-1a of len bytes, for spec hashes and stable ids. */
uint64_t sn_hash64(const void *data, size_t len, uint64_t seed);

#include "sn/banned.h"

#endif
