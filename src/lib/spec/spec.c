/* spec.c: the spec module's public entry points: parse and load a spec
 * (bytes checked, YAML parsed with positions, sections converted),
 * release it, override one value by its dotted key and re-validate, and
 * the totals every stage derives from a spec. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec-int.h"

/* Refuse bytes that are not text before the YAML parser sees them, so the
 * message can say where: NUL and control characters, and malformed UTF-8
 * (libyaml reports those by byte offset only). */
static int check_text(const char *file, const char *text, size_t len,
                      struct sn_error *err)
{
    const unsigned char *p = (const unsigned char *)text;
    int line = 1, col = 1;

    for (size_t i = 0; i < len;) {
        unsigned char b = p[i];
        size_t n = 1;

        if (b == '\n') {
            line++;
            col = 1;
            i++;
            continue;
        }
        if ((b < 0x20 && b != '\t' && b != '\r') || b == 0x7f)
            return sn_error_at(err, SN_EINPUT, file, line, col,
                               "byte 0x%02x is not text (expected UTF-8 "
                               "YAML)",
                               b);
        if (b >= 0x80) {
            unsigned cp;
            if (b >= 0xc2 && b <= 0xdf) {
                n = 2;
                cp = b & 0x1f;
            } else if (b >= 0xe0 && b <= 0xef) {
                n = 3;
                cp = b & 0x0f;
            } else if (b >= 0xf0 && b <= 0xf4) {
                n = 4;
                cp = b & 0x07;
            } else {
                n = 0;
                cp = 0;
            }
            for (size_t k = 1; n && k < n; k++) {
                if (i + k >= len || (p[i + k] & 0xc0) != 0x80)
                    n = 0;
                else
                    cp = (cp << 6) | (p[i + k] & 0x3f);
            }
            /* overlong forms, surrogates and values past U+10FFFF */
            if (n && ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
                      (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff))
                n = 0;
            /* YAML's printable set leaves out the C1 controls but NEL,
             * and U+FFFE/U+FFFF; libyaml would refuse them by offset */
            if (n && ((cp >= 0x80 && cp <= 0x9f && cp != 0x85) ||
                      cp == 0xfffe || cp == 0xffff))
                return sn_error_at(err, SN_EINPUT, file, line, col,
                                   "character U+%04X is not printable "
                                   "(expected YAML text)",
                                   cp);
            if (!n)
                return sn_error_at(err, SN_EINPUT, file, line, col,
                                   "byte 0x%02x is not valid UTF-8 (expected "
                                   "UTF-8 text)",
                                   b);
        }
        i += n;
        col++;
    }
    return SN_OK;
}

/* Free the converted part of a spec (everything but file, doc, hash). */
static void release_converted(struct sn_spec *spec)
{
    struct sn__arena *a = spec->owned;

    sn__arena_free(a);
    free(a);
    spec->owned = NULL;
}

/* Convert spec->doc into the rest of *spec; on failure the converted part
 * is released again. */
static int convert(struct sn_spec *spec, struct sn_error *err)
{
    struct sn__ctx c;
    int rc;

    spec->owned = sn_xcalloc(1, sizeof(struct sn__arena));
    memset(&c, 0, sizeof(c));
    c.file = spec->file;
    c.spec = spec;
    c.arena = spec->owned;
    c.err = err;
    rc = sn__convert(&c);
    if (rc)
        release_converted(spec);
    return rc;
}

int sn_spec_parse(const char *file, const char *text, size_t len,
                  struct sn_spec *spec, struct sn_error *err)
{
    int rc;

    memset(spec, 0, sizeof(*spec));
    if (!file)
        file = "<spec>";
    if (len > SN_SPEC_MAX_BYTES)
        return sn_error_at(err, SN_EINPUT, file, 1, 1,
                           "the spec is %zu bytes (expected at most %zu)", len,
                           SN_SPEC_MAX_BYTES);
    if ((rc = check_text(file, text, len, err)) ||
        (rc = sn_yaml_parse(file, text, len, &spec->doc, err)))
        return rc;
    spec->file = sn_xstrdup(file);
    spec->hash = sn_hash64(text, len, 0);
    rc = convert(spec, err);
    if (rc)
        sn_spec_release(spec);
    return rc;
}

int sn_spec_load(const char *path, struct sn_spec *spec, struct sn_error *err)
{
    char *text;
    size_t len;
    int rc;

    memset(spec, 0, sizeof(*spec));
    if (!path)
        return sn_spec_parse(SN_SPEC_DEFAULT_NAME, sn_spec_default_text,
                             strlen(sn_spec_default_text), spec, err);
    /* read past the spec's own cap so an oversized file gets a located
     * message from sn_spec_parse; the YAML cap bounds the read */
    rc = sn_read_file(path, SN_YAML_MAX_BYTES, &text, &len, err);
    if (rc)
        return rc;
    rc = sn_spec_parse(path, text, len, spec, err);
    free(text);
    return rc;
}

void sn_spec_release(struct sn_spec *spec)
{
    if (!spec)
        return;
    release_converted(spec);
    sn_yaml_doc_release(&spec->doc);
    free(spec->file);
    memset(spec, 0, sizeof(*spec));
}

const struct sn_yaml *sn_spec_section(const struct sn_spec *spec,
                                      const char *name)
{
    return sn_yaml_get(spec->doc.root, name);
}

int sn_spec_total_accels(const struct sn_spec *spec)
{
    return spec->supernodes * spec->scaleup.accelerators;
}

int sn_spec_nodes_per_supernode(const struct sn_spec *spec)
{
    if (spec->scaleup.per_node <= 0)
        return 0;
    return spec->scaleup.accelerators / spec->scaleup.per_node;
}

/* ---- sn_spec_set: one value changed, the whole spec converted again ---- */

static void yaml_free(struct sn_yaml *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->n; i++) {
        yaml_free(n->items[i]);
        if (n->keys)
            yaml_free(n->keys[i]);
    }
    free(n->items);
    free(n->keys);
    free(n->value);
    free(n);
}

/* A value given on the command line has no place in the file: its
 * position is cleared so errors about it name the file alone. */
static void unplace(struct sn_yaml *n)
{
    n->line = 0;
    n->col = 0;
    for (size_t i = 0; i < n->n; i++) {
        unplace(n->items[i]);
        if (n->keys)
            unplace(n->keys[i]);
    }
}

static struct sn_yaml *new_node(enum sn_yaml_type type, const char *value)
{
    struct sn_yaml *n = sn_xcalloc(1, sizeof(*n));

    n->type = type;
    if (value)
        n->value = sn_xstrdup(value);
    return n;
}

static void map_push(struct sn_yaml *map, struct sn_yaml *key,
                     struct sn_yaml *val)
{
    map->items = sn_xrealloc(map->items, (map->n + 1) * sizeof(val));
    map->keys = sn_xrealloc(map->keys, (map->n + 1) * sizeof(key));
    map->items[map->n] = val;
    map->keys[map->n] = key;
    map->n++;
}

static int check_key(const char *key, struct sn_error *err)
{
    const char *p = key;
    bool start = true;

    if (!*key || strlen(key) > 200)
        return sn_error_set(err, SN_EINPUT,
                            "--set: '%.64s' is not a dotted key such as "
                            "supernode.accelerators",
                            key);
    for (; *p; p++) {
        if (*p == '.') {
            if (start)
                break;
            start = true;
            continue;
        }
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '-'))
            break;
        start = false;
    }
    if (*p || start)
        return sn_error_set(err, SN_EINPUT,
                            "--set: '%.64s' is not a dotted key such as "
                            "supernode.accelerators",
                            key);
    return SN_OK;
}

/* One edit of the document: key's node replaced by value's (or added,
 * with the sections it needs). *old is the node replaced (NULL when
 * added), *slot where it was, *ins_parent the map a new pair was appended
 * to: what undo() needs. The spec is not converted. */
struct edit {
    struct sn_yaml *val, *old, **slot, *ins_parent;
};

static int edit_doc(struct sn_spec *spec, const char *key, const char *value,
                    struct edit *e, struct sn_error *err)
{
    struct sn_yaml_doc vdoc;
    struct sn_yaml *node, *val;
    char part[256];
    const char *p = key;
    int rc;

    memset(e, 0, sizeof(*e));
    if ((rc = check_key(key, err)))
        return rc;
    if (!spec->doc.root || spec->doc.root->type != SN_YAML_MAP)
        return sn_error_set(err, SN_EINPUT,
                            "--set %s: the spec has no "
                            "mapping to set it in",
                            key);
    rc = sn_yaml_parse("--set", value, strlen(value), &vdoc, err);
    if (rc)
        return rc;
    if (!vdoc.root) {
        sn_yaml_doc_release(&vdoc);
        return sn_error_set(err, SN_EINPUT,
                            "--set %s: no value (expected %s=VALUE)", key, key);
    }
    val = vdoc.root;
    vdoc.root = NULL;
    sn_yaml_doc_release(&vdoc);
    unplace(val);
    e->val = val;

    /* walk the dotted path, making sections that are not there yet */
    node = spec->doc.root;
    for (;;) {
        const char *dot = strchr(p, '.');
        size_t n = dot ? (size_t)(dot - p) : strlen(p);
        struct sn_yaml *child;

        memcpy(part, p, n);
        part[n] = '\0';
        child = sn_yaml_get(node, part);
        if (!dot) {
            if (child) {
                for (size_t i = 0; i < node->n; i++)
                    if (node->items[i] == child)
                        e->slot = &node->items[i];
                e->old = child;
                *e->slot = val;
            } else {
                if (!e->ins_parent)
                    e->ins_parent = node;
                map_push(node, new_node(SN_YAML_SCALAR, part), val);
            }
            return SN_OK;
        }
        if (child && child->type != SN_YAML_MAP) {
            /* sections made on the way stay, empty: undo() removes
             * them */
            rc = sn_error_set(err, SN_EINPUT,
                              "--set %s: '%s' is %s, not a section", key, part,
                              sn_yaml_type_name(child->type));
            yaml_free(val);
            e->val = NULL;
            return rc;
        }
        if (!child) {
            child = new_node(SN_YAML_MAP, NULL);
            if (!e->ins_parent)
                e->ins_parent = node;
            map_push(node, new_node(SN_YAML_SCALAR, part), child);
        }
        node = child;
        p = dot + 1;
    }
}

/* Put the document back as it was before edit e. */
static void undo(struct edit *e)
{
    if (e->old) {
        *e->slot = e->old;
        yaml_free(e->val);
    } else if (e->ins_parent) {
        e->ins_parent->n--;
        yaml_free(e->ins_parent->keys[e->ins_parent->n]);
        yaml_free(e->ins_parent->items[e->ins_parent->n]);
    }
    memset(e, 0, sizeof(*e));
}

int sn_spec_set_all(struct sn_spec *spec, const char *const *keys,
                    const char *const *values, size_t n, struct sn_error *err)
{
    struct edit *e = sn_xcalloc(n + 1, sizeof(*e));
    struct sn_spec tmp;
    uint64_t hash = spec->hash;
    size_t done = 0;
    int rc = SN_OK;

    for (; done < n; done++)
        if ((rc = edit_doc(spec, keys[done], values[done], &e[done], err))) {
            undo(&e[done]);
            break;
        }
    if (!rc) {
        memset(&tmp, 0, sizeof(tmp));
        tmp.file = spec->file;
        tmp.doc = spec->doc;
        rc = convert(&tmp, err);
        if (rc && err) {
            size_t l = strlen(err->msg);
            for (size_t k = 0; k < n && l + 1 < sizeof(err->msg); k++) {
                snprintf(err->msg + l, sizeof(err->msg) - l, "%s--set %s=%.64s",
                         k ? ", " : " (after ", keys[k], values[k]);
                l = strlen(err->msg);
            }
            if (l + 1 < sizeof(err->msg))
                snprintf(err->msg + l, sizeof(err->msg) - l, ")");
        }
    }
    if (rc) {
        /* the document as it was, newest edit first */
        while (done-- > 0)
            undo(&e[done]);
        free(e);
        return rc;
    }
    for (size_t k = 0; k < n; k++) {
        yaml_free(e[k].old);
        hash = sn_hash64("=", 1, sn_hash64(keys[k], strlen(keys[k]), hash));
        hash = sn_hash64(values[k], strlen(values[k]), hash);
    }
    free(e);
    release_converted(spec);
    tmp.file = spec->file;
    tmp.doc = spec->doc;
    tmp.hash = hash;
    *spec = tmp;
    return SN_OK;
}

int sn_spec_set(struct sn_spec *spec, const char *key, const char *value,
                struct sn_error *err)
{
    return sn_spec_set_all(spec, &key, &value, 1, err);
}

void sn_accel_host(const struct sn_accel_info *a, struct sn_accel_host *h)
{
    h->cpus = a && a->host_cpus > 0 ? a->host_cpus : 1;
    h->bw = a && a->host_bw > 0 ? a->host_bw : SN_PCIE5_X16;
    h->link = a && a->host_link ? a->host_link : "PCIe";
}
