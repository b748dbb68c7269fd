/* spec-int.h: what the files of the spec module share and nothing else
 * sees: the allocation arena a parsed spec owns, the conversion context,
 * and the schema helpers that turn YAML nodes into checked SI values with
 * located errors. */
#ifndef SN_SPEC_INT_H
#define SN_SPEC_INT_H

#if !defined(SN_MODULE_spec) && !defined(SN_TESTS)
#error "private to src/lib/spec (tests/layers/table)"
#endif

#include <stdarg.h>

#include "sn/spec.h"

/* Caps on what a spec may ask for, checked before anything is sized from
 * it (docs/spec.md "Limits"). */
#define SN_SPEC_MAX_BYTES ((size_t)4 << 20)
#define SN_SPEC_MAX_ACCELS 100000         /* per supernode */
#define SN_SPEC_MAX_TOTAL_ACCELS 10000000 /* whole cluster */
#define SN_SPEC_MAX_SUPERNODES 100000
#define SN_SPEC_MAX_LINKS_PER_ACCEL 1024
#define SN_SPEC_MAX_TOTAL_LINKS 100000000.0 /* scale-up links, cluster */
#define SN_SPEC_MAX_NICS_PER_NODE 1024
#define SN_SPEC_MAX_TOTAL_NICS 100000000.0
#define SN_SPEC_MAX_PER_NODE 1024
#define SN_SPEC_MAX_RADIX 4096
#define SN_SPEC_MAX_ENTRIES 1000        /* user entries per catalog kind */
#define SN_SPEC_MAX_NET_SWITCHES 100000 /* explicit scale-out switches */
#define SN_SPEC_MAX_NET_LINKS 1000000   /* explicit switch links */
#define SN_SPEC_MAX_NAME SN_CATALOG_MAX_NAME

/* Everything a parsed spec allocates: freed together by
 * sn_spec_release(). */
struct sn__arena {
    void **ptrs;
    size_t n, cap;
};

void *sn__arena_alloc(struct sn__arena *a, size_t size);
char *sn__arena_strdup(struct sn__arena *a, const char *s);
void sn__arena_free(struct sn__arena *a);

/* One conversion of a YAML document into a spec. */
struct sn__ctx {
    const char *file;
    struct sn_spec *spec;
    struct sn__arena *arena;
    struct sn_error *err;
    const struct sn_yaml *root;
};

/* A located SN_EINPUT at node n ("file:line:col: ..."); a node without a
 * position (set with sn_spec_set) reports the file alone. */
int sn__fail(struct sn__ctx *c, const struct sn_yaml *n, const char *fmt, ...)
    SN_PRINTF(3, 4);

/* n must be a mapping; `what` names it in the message. */
int sn__expect_map(struct sn__ctx *c, const struct sn_yaml *n,
                   const char *what);
/* Every key of map must be in keys (NULL-terminated); an unknown one is
 * reported at the key with a did-you-mean. */
int sn__check_keys(struct sn__ctx *c, const struct sn_yaml *map,
                   const char *what, const char *const *keys);
/* The scalar at key in map, or NULL when absent; *rc is set when it is
 * present but not a single value. */
const struct sn_yaml *sn__scalar(struct sn__ctx *c, const struct sn_yaml *map,
                                 const char *key, const char *what, int *rc);

/* Getters: when key is absent they return SN_OK and leave *out alone.
 * `what` is the section's dotted name ("supernode"). */
int sn__get_int(struct sn__ctx *c, const struct sn_yaml *map, const char *key,
                const char *what, long long min, long long max, int *out);
int sn__get_qty(struct sn__ctx *c, const struct sn_yaml *map, const char *key,
                const char *what, enum sn_unit_kind kind, double min,
                double max, double *out);
int sn__get_bool(struct sn__ctx *c, const struct sn_yaml *map, const char *key,
                 const char *what, bool *out);
/* One of names (NULL-terminated); *out is the index. */
int sn__get_enum(struct sn__ctx *c, const struct sn_yaml *map, const char *key,
                 const char *what, const char *const *names, int *out);
/* A free-text value of at most max bytes, copied into the arena. */
int sn__get_text(struct sn__ctx *c, const struct sn_yaml *map, const char *key,
                 const char *what, size_t max, const char **out);
/* A catalog-style name: lowercase letters, digits, '-', '_', '.', at most
 * SN_SPEC_MAX_NAME bytes. */
int sn__get_name(struct sn__ctx *c, const struct sn_yaml *map, const char *key,
                 const char *what, const char **out);
/* Position of map[key] when given, else of the map, else 0:0. */
const struct sn_yaml *sn__at(const struct sn_yaml *map, const char *key);

/* Parse a single YAML value n as a whole number within [min, max]. */
int sn__int_value(struct sn__ctx *c, const struct sn_yaml *n, const char *what,
                  long long min, long long max, long long *out);

/* Catalog: the `catalog:` section (user entries merged over the built-in
 * ones) and the inline `accelerator:` and `workload.model` mappings. */
int sn__catalog_load(struct sn__ctx *c, const struct sn_yaml *section);
int sn__accel_entry(struct sn__ctx *c, const struct sn_yaml *map,
                    const char *what, const struct sn_accel_info **out);
int sn__model_entry(struct sn__ctx *c, const struct sn_yaml *map,
                    const char *what, const struct sn_model_info **out);

/* Sections (sections.c), in the order sn__convert() runs them. */
int sn__convert(struct sn__ctx *c);
/* The supernode (scaleup.c) and scaleout (scaleout.c) sections. */
int sn__scaleup(struct sn__ctx *c);
int sn__scaleout(struct sn__ctx *c);

/* The names of enum sn_fabric and enum sn_medium in a spec, in enum order,
 * NULL-terminated (scaleup.c). */
extern const char *const sn__fabric_names[];
extern const char *const sn__medium_names[];

/* The position of node n, 0:0 for NULL. */
struct sn_pos sn__pos_of(const struct sn_yaml *n);

/* A key that applies to some variants of a section only (fabrics of the
 * supernode, topologies of the scale-out): bit v of applies is set when
 * it applies to variant v; why ends the message when it does not. */
struct sn__scope {
    const char *key;
    unsigned applies;
    const char *why;
};
/* The first key of scope (in its order) given in map that does not apply
 * to variant (0 to 31) fails, at the key: "what.key why". */
int sn__check_scope(struct sn__ctx *c, const struct sn_yaml *map,
                    const char *what, const struct sn__scope *scope, size_t n,
                    int variant);

/* The catalog cable named at m.cable, NULL when absent; it must be at
 * least as fast as rate (ratewhat names the rate in the message). */
int sn__pick_cable(struct sn__ctx *c, const struct sn_yaml *m, const char *what,
                   double rate, const char *ratewhat,
                   const struct sn_cable_info **out);
/* A switch chip given by catalog name (m.switch) or by radix alone
 * (m.radix, *sw NULL), not both; neither: the catalog entry deflt, or
 * nothing when deflt is NULL. */
int sn__pick_switch(struct sn__ctx *c, const struct sn_yaml *m,
                    const char *what, const char *deflt,
                    const struct sn_switch_info **sw, int *radix);

#endif
