/* yaml.c: YAML text to a small tree with file positions, on libyaml's
 * event parser. Every later error message points at a line and column
 * from here. Inputs are capped (size, depth, node count) before they can
 * cost memory. */
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "sn/util.h"

/* The keys of one open mapping, for finding duplicates in O(1): open
 * addressing over FNV-1a hashes, slots hold index + 1 into the map's keys,
 * grown when half full. */
struct keyset {
    uint32_t *slot;
    size_t cap;
};

struct builder {
    const char *file;
    struct sn_yaml *stack[SN_YAML_MAX_DEPTH + 2];
    struct sn_yaml *pending_key[SN_YAML_MAX_DEPTH + 2];
    struct keyset keys[SN_YAML_MAX_DEPTH + 2];
    int depth;
    size_t nodes;
    struct sn_yaml *root;
    int docs;
};

static void node_free(struct sn_yaml *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->n; i++) {
        node_free(n->items[i]);
        if (n->keys)
            node_free(n->keys[i]);
    }
    free(n->items);
    free(n->keys);
    free(n->value);
    free(n);
}

static struct sn_yaml *node_new(enum sn_yaml_type type, yaml_mark_t mark)
{
    struct sn_yaml *n = sn_xcalloc(1, sizeof(*n));

    n->type = type;
    n->line = (int)mark.line + 1;
    n->col = (int)mark.column + 1;
    return n;
}

static void push_item(struct sn_yaml *parent, struct sn_yaml *key,
                      struct sn_yaml *item)
{
    if (parent->n == parent->cap) {
        size_t cap = parent->cap ? parent->cap * 2 : 4;
        parent->items = sn_xrealloc(parent->items, cap * sizeof(item));
        if (parent->type == SN_YAML_MAP)
            parent->keys = sn_xrealloc(parent->keys, cap * sizeof(key));
        parent->cap = cap;
    }
    parent->items[parent->n] = item;
    if (parent->type == SN_YAML_MAP)
        parent->keys[parent->n] = key;
    parent->n++;
}

static size_t key_hash(const char *s)
{
    return (size_t)sn_hash64(s, strlen(s), 0);
}

/* The earlier key equal to `name` in map (indexed by ks), or NULL. */
static struct sn_yaml *keyset_find(const struct keyset *ks,
                                   const struct sn_yaml *map, const char *name)
{
    if (!ks->cap)
        return NULL;
    for (size_t i = key_hash(name) & (ks->cap - 1);;
         i = (i + 1) & (ks->cap - 1)) {
        uint32_t v = ks->slot[i];
        if (!v)
            return NULL;
        if (strcmp(map->keys[v - 1]->value, name) == 0)
            return map->keys[v - 1];
    }
}

static void keyset_insert(struct keyset *ks, const struct sn_yaml *map,
                          size_t index, const char *name)
{
    if ((map->n + 1) * 2 > ks->cap) {
        size_t cap = ks->cap ? ks->cap * 2 : 16;
        uint32_t *slot = sn_xcalloc(cap, sizeof(uint32_t));
        for (size_t k = 0; k < ks->cap; k++) {
            uint32_t v = ks->slot[k];
            size_t i;
            if (!v)
                continue;
            i = key_hash(map->keys[v - 1]->value) & (cap - 1);
            while (slot[i])
                i = (i + 1) & (cap - 1);
            slot[i] = v;
        }
        free(ks->slot);
        ks->slot = slot;
        ks->cap = cap;
    }
    for (size_t i = key_hash(name) & (ks->cap - 1);;
         i = (i + 1) & (ks->cap - 1)) {
        if (!ks->slot[i]) {
            ks->slot[i] = (uint32_t)index + 1;
            return;
        }
    }
}

static void keyset_release(struct keyset *ks)
{
    free(ks->slot);
    ks->slot = NULL;
    ks->cap = 0;
}

/* Attach a finished node to its parent (or make it the root). Returns
 * SN_OK or a located error. */
static int attach(struct builder *b, struct sn_yaml *n, struct sn_error *err)
{
    struct sn_yaml *parent;

    if (b->depth == 0) {
        b->root = n;
        return SN_OK;
    }
    parent = b->stack[b->depth - 1];
    if (parent->type == SN_YAML_SEQ) {
        push_item(parent, NULL, n);
        return SN_OK;
    }
    if (!b->pending_key[b->depth - 1]) {
        if (n->type != SN_YAML_SCALAR) {
            int rc = sn_error_at(err, SN_EINPUT, b->file, n->line, n->col,
                                 "a mapping key must be a plain name, not %s",
                                 sn_yaml_type_name(n->type));
            node_free(n);
            return rc;
        }
        {
            struct sn_yaml *first =
                keyset_find(&b->keys[b->depth - 1], parent, n->value);
            if (first) {
                int rc = sn_error_at(
                    err, SN_EINPUT, b->file, n->line, n->col,
                    "duplicate key '%.64s' (first given at line %d)", n->value,
                    first->line);
                node_free(n);
                return rc;
            }
        }
        b->pending_key[b->depth - 1] = n;
        return SN_OK;
    }
    if (parent->type == SN_YAML_MAP)
        keyset_insert(&b->keys[b->depth - 1], parent, parent->n,
                      b->pending_key[b->depth - 1]->value);
    push_item(parent, b->pending_key[b->depth - 1], n);
    b->pending_key[b->depth - 1] = NULL;
    return SN_OK;
}

static int count_node(struct builder *b, yaml_mark_t mark, struct sn_error *err)
{
    if (++b->nodes > SN_YAML_MAX_NODES)
        return sn_error_at(
            err, SN_EINPUT, b->file, (int)mark.line + 1, (int)mark.column + 1,
            "document has more than %d nodes", SN_YAML_MAX_NODES);
    return SN_OK;
}

static int parser_error(yaml_parser_t *p, const char *file,
                        struct sn_error *err)
{
    const char *what = p->problem ? p->problem : "cannot parse YAML";

    if (p->error == YAML_READER_ERROR)
        return sn_error_at(err, SN_EINPUT, file, 0, 0,
                           "%s at byte %zu (expected UTF-8 text)", what,
                           p->problem_offset);
    if (p->context)
        return sn_error_at(err, SN_EINPUT, file, (int)p->problem_mark.line + 1,
                           (int)p->problem_mark.column + 1, "%s %s", what,
                           p->context);
    return sn_error_at(err, SN_EINPUT, file, (int)p->problem_mark.line + 1,
                       (int)p->problem_mark.column + 1, "%s", what);
}

static int handle_event(struct builder *b, yaml_event_t *ev, bool *done,
                        struct sn_error *err)
{
    struct sn_yaml *n;
    int rc;

    switch (ev->type) {
    case YAML_STREAM_START_EVENT:
    case YAML_DOCUMENT_END_EVENT:
        return SN_OK;
    case YAML_STREAM_END_EVENT:
        *done = true;
        return SN_OK;
    case YAML_DOCUMENT_START_EVENT:
        if (++b->docs > 1)
            return sn_error_at(err, SN_EINPUT, b->file,
                               (int)ev->start_mark.line + 1,
                               (int)ev->start_mark.column + 1,
                               "more than one document (expected one)");
        return SN_OK;
    case YAML_ALIAS_EVENT:
        return sn_error_at(err, SN_EINPUT, b->file,
                           (int)ev->start_mark.line + 1,
                           (int)ev->start_mark.column + 1,
                           "aliases ('*name') are not supported; write the "
                           "value out");
    case YAML_SCALAR_EVENT:
        if ((rc = count_node(b, ev->start_mark, err)))
            return rc;
        n = node_new(SN_YAML_SCALAR, ev->start_mark);
        n->value = sn_xstrndup((const char *)ev->data.scalar.value,
                               ev->data.scalar.length);
        if (strlen(n->value) != ev->data.scalar.length) {
            rc = sn_error_at(err, SN_EINPUT, b->file, n->line, n->col,
                             "a value contains a NUL byte");
            node_free(n);
            return rc;
        }
        n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
        return attach(b, n, err);
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
        if ((rc = count_node(b, ev->start_mark, err)))
            return rc;
        if (b->depth >= SN_YAML_MAX_DEPTH)
            return sn_error_at(
                err, SN_EINPUT, b->file, (int)ev->start_mark.line + 1,
                (int)ev->start_mark.column + 1, "nested deeper than %d levels",
                SN_YAML_MAX_DEPTH);
        n = node_new(ev->type == YAML_SEQUENCE_START_EVENT ? SN_YAML_SEQ
                                                           : SN_YAML_MAP,
                     ev->start_mark);
        b->stack[b->depth] = n;
        b->pending_key[b->depth] = NULL;
        keyset_release(&b->keys[b->depth]);
        b->depth++;
        return SN_OK;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
        b->depth--;
        n = b->stack[b->depth];
        b->stack[b->depth] = NULL;
        keyset_release(&b->keys[b->depth]);
        return attach(b, n, err);
    default:
        return SN_OK;
    }
}

int sn_yaml_parse(const char *file, const char *text, size_t len,
                  struct sn_yaml_doc *doc, struct sn_error *err)
{
    yaml_parser_t parser;
    struct builder b;
    bool done = false;
    int rc = SN_OK;

    memset(doc, 0, sizeof(*doc));
    memset(&b, 0, sizeof(b));
    b.file = file;
    if (len > SN_YAML_MAX_BYTES)
        return sn_error_at(err, SN_EINPUT, file, 0, 0,
                           "file is larger than the %zu bytes allowed",
                           SN_YAML_MAX_BYTES);
    if (!yaml_parser_initialize(&parser))
        return sn_error_set(err, SN_ENOMEM, "cannot start the YAML parser");
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    while (!done) {
        yaml_event_t ev;
        if (!yaml_parser_parse(&parser, &ev)) {
            rc = parser_error(&parser, file, err);
            break;
        }
        rc = handle_event(&b, &ev, &done, err);
        yaml_event_delete(&ev);
        if (rc)
            break;
    }
    yaml_parser_delete(&parser);
    if (rc) {
        /* free what was built: open containers hold their children */
        for (int i = b.depth - 1; i >= 0; i--) {
            node_free(b.pending_key[i]);
            node_free(b.stack[i]);
            keyset_release(&b.keys[i]);
        }
        node_free(b.root);
        return rc;
    }
    doc->file = sn_xstrdup(file);
    doc->root = b.root;
    doc->nodes = b.nodes;
    return SN_OK;
}

int sn_yaml_load(const char *path, struct sn_yaml_doc *doc,
                 struct sn_error *err)
{
    char *text;
    size_t len;
    int rc;

    memset(doc, 0, sizeof(*doc));
    rc = sn_read_file(path, SN_YAML_MAX_BYTES, &text, &len, err);
    if (rc)
        return rc;
    rc = sn_yaml_parse(path, text, len, doc, err);
    free(text);
    return rc;
}

void sn_yaml_doc_release(struct sn_yaml_doc *doc)
{
    node_free(doc->root);
    free(doc->file);
    memset(doc, 0, sizeof(*doc));
}

struct sn_yaml *sn_yaml_get(const struct sn_yaml *map, const char *key)
{
    if (!map || map->type != SN_YAML_MAP)
        return NULL;
    for (size_t i = 0; i < map->n; i++)
        if (strcmp(map->keys[i]->value, key) == 0)
            return map->items[i];
    return NULL;
}

const char *sn_yaml_type_name(enum sn_yaml_type type)
{
    switch (type) {
    case SN_YAML_SCALAR:
        return "a single value";
    case SN_YAML_MAP:
        return "a mapping";
    case SN_YAML_SEQ:
        return "a list";
    }
    return "?";
}
