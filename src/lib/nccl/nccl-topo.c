/* nccl-topo.c: NCCL's topology dump (NCCL_TOPO_DUMP_FILE) read with
 * libxml2 into GPUs, NVLinks, NICs and CPUs, each GPU paired with a NIC
 * at its PCIe distance; the checks against the design live in
 * nccl-check.c. Format: NVIDIA/nccl src/graph/xml.{h,cc} and topo.cc
 * (docs/doctor.md, "NCCL's view"). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "sn/nccl.h"

/* NCCL's own parser limits (src/graph/xml.h): MAX_STR_LEN 255,
 * MAX_ATTR_COUNT 16, NCCL_TOPO_XML_VERSION 1 */
#define XML_MAX_STR 255
#define XML_MAX_ATTRS 16
#define XML_VERSION 1
#define XML_MAX_DEPTH 32
#define XML_MAX_ELEMENTS 65536

/* tclass values (PCI class codes) NCCL writes on <nvlink> */
#define TCLASS_NVSWITCH 0x068000
#define TCLASS_CPU 0x068001

struct pctx {
    const char *name;
    struct sn_nccl_topo *t;
    struct sn_error *err;
    xmlNodePtr gpu_pci[SN_NCCL_MAX_GPUS]; /* the element the GPU hangs on */
    xmlNodePtr nic_pci[SN_NCCL_MAX_NICS];
    long elements;
};

static int bad(struct pctx *p, xmlNodePtr n, const char *fmt, ...)
    SN_PRINTF(3, 4);
static int bad(struct pctx *p, xmlNodePtr n, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return sn_error_at(p->err, SN_EINPUT, p->name, n ? (int)xmlGetLineNo(n) : 0,
                       0, "%s", msg);
}

static bool is(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

/* An attribute's value cleaned into buf; false when absent. */
static bool attr(xmlNodePtr n, const char *key, char *buf, size_t size)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)key);

    if (!v)
        return false;
    sn_str_clean(buf, size, (const char *)v, 0);
    xmlFree(v);
    return true;
}

/* An integer attribute (decimal, or hex with 0x, as NCCL writes u64s);
 * def when absent. SN_EINPUT when present and not a number. */
static int attr_int(struct pctx *p, xmlNodePtr n, const char *key,
                    long long def, long long *out)
{
    char buf[64], *end;
    long long v;

    *out = def;
    if (!attr(n, key, buf, sizeof(buf)))
        return SN_OK;
    errno = 0;
    v = strtoll(buf, &end, 0);
    if (end == buf || *end || errno)
        return bad(p, n, "<%s %s=\"%s\">: not a whole number", n->name, key,
                   buf);
    *out = v;
    return SN_OK;
}

/* NCCL's limits on every element: attributes and their lengths. */
static int check_element(struct pctx *p, xmlNodePtr n)
{
    int count = 0;

    if (++p->elements > XML_MAX_ELEMENTS)
        return bad(p, n, "more than %d elements", XML_MAX_ELEMENTS);
    for (xmlAttrPtr a = n->properties; a; a = a->next) {
        xmlChar *v = xmlNodeListGetString(n->doc, a->children, 1);
        size_t len = v ? strlen((const char *)v) : 0;
        xmlFree(v);
        if (++count > XML_MAX_ATTRS)
            return bad(p, n,
                       "<%s> has more than %d attributes (NCCL's "
                       "MAX_ATTR_COUNT)",
                       n->name, XML_MAX_ATTRS);
        if (len > XML_MAX_STR)
            return bad(p, n,
                       "<%s %s>: value of %zu characters, NCCL reads at "
                       "most %d",
                       n->name, a->name, len, XML_MAX_STR);
    }
    return SN_OK;
}

static int add_nvlink(struct pctx *p, struct sn_nccl_gpu *g, xmlNodePtr n)
{
    char target[32] = "", tclass[32] = "";
    long long count, cls;
    int rc;

    if ((rc = attr_int(p, n, "count", 0, &count)))
        return rc;
    if (count < 0 || count > 1024)
        return bad(p, n, "<nvlink count=\"%lld\">: out of range", count);
    attr(n, "target", target, sizeof(target));
    if (!attr(n, "tclass", tclass, sizeof(tclass)))
        return bad(p, n, "<nvlink> without tclass");
    cls = strtoll(tclass, NULL, 0);
    if (cls == TCLASS_NVSWITCH) {
        g->nvs_links += (int)count;
    } else if (cls == TCLASS_CPU) {
        g->cpu_links += (int)count;
    } else if ((cls >> 16) == 0x03) {
        struct sn_nccl_peer *pe;
        if (g->npeers >= SN_NCCL_MAX_PEERS)
            return bad(p, n, "more than %d NVLink peers on one GPU",
                       SN_NCCL_MAX_PEERS);
        pe = &g->peers[g->npeers++];
        sn_strlcpy(pe->target, target, sizeof(pe->target));
        pe->count = (int)count;
        pe->gpu = -1;
    }
    return SN_OK;
}

static int add_gpu(struct pctx *p, xmlNodePtr n, xmlNodePtr pci, int cpu)
{
    struct sn_nccl_topo *t = p->t;
    struct sn_nccl_gpu *g;
    long long v;
    int rc;

    if (t->ngpus >= SN_NCCL_MAX_GPUS)
        return bad(p, n, "more than %d GPUs", SN_NCCL_MAX_GPUS);
    g = &t->gpus[t->ngpus];
    memset(g, 0, sizeof(*g));
    g->line = (int)xmlGetLineNo(n);
    g->cpu = cpu;
    g->nic = -1;
    g->path = SN_NCCL_PATH_NONE;
    if (!pci || !attr(pci, "busid", g->busid, sizeof(g->busid)))
        return bad(p, n, "<gpu> outside a <pci busid=...> element");
    if ((rc = attr_int(p, n, "dev", -1, &v)))
        return rc;
    if (v < 0 || v > INT_MAX)
        return bad(p, n, "<gpu> without a dev attribute");
    g->dev = (int)v;
    if ((rc = attr_int(p, n, "rank", -1, &v)) ||
        (g->rank = (int)v, rc = attr_int(p, n, "sm", 0, &v)) ||
        (g->sm = (int)v, rc = attr_int(p, n, "gdr", -1, &v)))
        return rc;
    g->gdr = (int)v;
    for (xmlNodePtr s = n->children; s; s = s->next) {
        if (s->type != XML_ELEMENT_NODE)
            continue;
        if ((rc = check_element(p, s)))
            return rc;
        if (is(s, "nvlink") && (rc = add_nvlink(p, g, s)))
            return rc;
        if (is(s, "c2c")) {
            if ((rc = attr_int(p, s, "count", 0, &v)))
                return rc;
            g->c2c += (int)(v < 0 || v > 1024 ? 0 : v);
        }
    }
    p->gpu_pci[t->ngpus++] = pci;
    return SN_OK;
}

static int add_net(struct pctx *p, xmlNodePtr n, xmlNodePtr pci, int cpu)
{
    struct sn_nccl_topo *t = p->t;
    struct sn_nccl_nic *c;
    long long v;
    int rc;

    if (t->nnics >= SN_NCCL_MAX_NICS)
        return bad(p, n, "more than %d network devices", SN_NCCL_MAX_NICS);
    c = &t->nics[t->nnics];
    memset(c, 0, sizeof(*c));
    c->line = (int)xmlGetLineNo(n);
    c->cpu = cpu;
    if (pci)
        attr(pci, "busid", c->busid, sizeof(c->busid));
    attr(n, "name", c->name, sizeof(c->name));
    if ((rc = attr_int(p, n, "dev", -1, &v)))
        return rc;
    if (v < 0 || v > INT_MAX)
        return bad(p, n, "<net> without a dev attribute");
    c->dev = (int)v;
    if ((rc = attr_int(p, n, "speed", 0, &c->speed_mbps)) ||
        (rc = attr_int(p, n, "port", 0, &v)) ||
        (c->port = (int)v, rc = attr_int(p, n, "gdr", 0, &v)))
        return rc;
    c->gdr = (int)v;
    p->nic_pci[t->nnics++] = pci;
    return SN_OK;
}

/* Walk one element under <cpu> index cpu; pci is the nearest <pci>. */
static int walk(struct pctx *p, xmlNodePtr n, xmlNodePtr pci, int cpu,
                int depth)
{
    int rc;

    if (depth > XML_MAX_DEPTH)
        return bad(p, n, "elements nested deeper than %d", XML_MAX_DEPTH);
    if ((rc = check_element(p, n)))
        return rc;
    if (is(n, "gpu"))
        return add_gpu(p, n, pci, cpu);
    if (is(n, "net"))
        return add_net(p, n, pci, cpu);
    if (is(n, "pci"))
        pci = n;
    for (xmlNodePtr s = n->children; s; s = s->next)
        if (s->type == XML_ELEMENT_NODE &&
            (rc = walk(p, s, pci, cpu, depth + 1)))
            return rc;
    return SN_OK;
}

static int add_cpu(struct pctx *p, xmlNodePtr n)
{
    struct sn_nccl_topo *t = p->t;
    struct sn_nccl_cpu *c;
    long long v;
    int rc;

    if ((rc = check_element(p, n)))
        return rc;
    if (t->ncpus >= SN_NCCL_MAX_CPUS)
        return bad(p, n, "more than %d <cpu> elements", SN_NCCL_MAX_CPUS);
    c = &t->cpus[t->ncpus];
    if ((rc = attr_int(p, n, "numaid", -1, &v)))
        return rc;
    c->numaid = v < INT_MIN || v > INT_MAX ? -1 : (int)v;
    attr(n, "affinity", c->affinity, sizeof(c->affinity));
    attr(n, "arch", c->arch, sizeof(c->arch));
    attr(n, "vendor", c->vendor, sizeof(c->vendor));
    t->ncpus++;
    for (xmlNodePtr s = n->children; s; s = s->next)
        if (s->type == XML_ELEMENT_NODE &&
            (rc = walk(p, s, NULL, t->ncpus - 1, 1)))
            return rc;
    return SN_OK;
}

/* ---- PCIe distance ---------------------------------------------------------
 * NCCL's rule (src/graph/paths.cc): a path is as bad as its worst hop; a
 * hop between two PCI switches makes it PXB, one through the CPU PHB,
 * one between CPUs SYS, else PIX. In the dump's tree: the <pci> elements
 * of the GPU and the NIC, their lowest common ancestor, and how many
 * switches (<pci> elements) the path crosses. */

static int ancestors(xmlNodePtr n, xmlNodePtr *out, int max)
{
    int k = 0;

    for (xmlNodePtr a = n ? n->parent : NULL; a && k < max; a = a->parent) {
        if (a->type != XML_ELEMENT_NODE)
            break;
        out[k++] = a;
        if (is(a, "cpu"))
            break;
    }
    return k;
}

static enum sn_nccl_path path_between(xmlNodePtr gpu, xmlNodePtr nic, int gcpu,
                                      int ncpu)
{
    xmlNodePtr ga[XML_MAX_DEPTH + 2], na[XML_MAX_DEPTH + 2];
    int ng, nn;

    if (gcpu != ncpu)
        return SN_NCCL_PATH_SYS;
    if (!gpu || !nic)
        return SN_NCCL_PATH_PHB; /* a NIC without PCI hangs on the CPU */
    ng = ancestors(gpu, ga, XML_MAX_DEPTH + 2);
    nn = ancestors(nic, na, XML_MAX_DEPTH + 2);
    for (int i = 0; i < ng; i++)
        for (int j = 0; j < nn; j++) {
            if (ga[i] != na[j])
                continue;
            if (is(ga[i], "cpu"))
                return SN_NCCL_PATH_PHB;
            /* switches crossed: i + 1 above the GPU (the common one
             * included), j below it on the NIC's side */
            return i + 1 + j > 1 ? SN_NCCL_PATH_PXB : SN_NCCL_PATH_PIX;
        }
    return SN_NCCL_PATH_PHB;
}

/* Pair GPUs with NICs. With at least one NIC per GPU each GPU gets a NIC
 * of its own, as a rail-optimised node cables NIC i for GPU i: closest
 * pairs first (every PIX pair, then PXB, ...), GPUs in dev order within
 * a distance, so one misplaced NIC shows on its own GPU only. With fewer
 * NICs each GPU takes its closest. */
static void pair_nics(struct pctx *p)
{
    struct sn_nccl_topo *t = p->t;
    bool taken[SN_NCCL_MAX_NICS] = {false};
    bool exclusive = t->nnics >= t->ngpus;

    for (int want = SN_NCCL_PATH_PIX; want <= SN_NCCL_PATH_SYS; want++)
        for (int i = 0; i < t->ngpus; i++) {
            struct sn_nccl_gpu *g = &t->gpus[i];
            for (int k = 0; k < t->nnics && g->nic < 0; k++) {
                if (exclusive && taken[k])
                    continue;
                if ((int)path_between(p->gpu_pci[i], p->nic_pci[k], g->cpu,
                                      t->nics[k].cpu) > want)
                    continue;
                g->nic = k;
                g->path = (enum sn_nccl_path)want;
                taken[k] = true;
            }
        }
}

static void resolve_peers(struct sn_nccl_topo *t)
{
    for (int i = 0; i < t->ngpus; i++)
        for (int k = 0; k < t->gpus[i].npeers; k++) {
            struct sn_nccl_peer *pe = &t->gpus[i].peers[k];
            for (int j = 0; j < t->ngpus; j++)
                if (!strcasecmp(pe->target, t->gpus[j].busid))
                    pe->gpu = j;
        }
}

static int parse_doc(struct pctx *p, xmlDocPtr doc)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    long long version;
    int rc;

    if (!root || !is(root, "system"))
        return bad(p, root,
                   "the root element is <%s>, NCCL's dump has "
                   "<system version=\"1\">",
                   root ? (const char *)root->name : "");
    if ((rc = check_element(p, root)) ||
        (rc = attr_int(p, root, "version", -1, &version)))
        return rc;
    if (version != XML_VERSION)
        return bad(p, root,
                   "<system version=\"%lld\">: NCCL reads version %d "
                   "(\"XML Topology has wrong version\")",
                   version, XML_VERSION);
    for (xmlNodePtr s = root->children; s; s = s->next)
        if (is(s, "cpu") && (rc = add_cpu(p, s)))
            return rc;
    if (p->t->ngpus == 0)
        return bad(p, root,
                   "no <gpu> in the dump (is it NCCL's "
                   "NCCL_TOPO_DUMP_FILE?)");
    resolve_peers(p->t);
    pair_nics(p);
    return SN_OK;
}

/* A DOCTYPE seen: NCCL writes its dumps without one (xml.cc's
 * ncclTopoDumpXmlToFile), and a DTD is where entity bombs and external
 * entities live, so the parse stops at the declaration's name, before
 * libxml2 reads the internal subset or expands anything. */
struct doctype_stop {
    bool seen;
    int line, col;
};

static void on_doctype(void *user, const xmlChar *name, const xmlChar *eid,
                       const xmlChar *sid)
{
    xmlParserCtxtPtr ctxt = user;
    struct doctype_stop *d = ctxt->_private;

    (void)name;
    (void)eid;
    (void)sid;
    d->seen = true;
    if (ctxt->input) {
        /* the parser stands past the name and the external id: point at
         * the declaration's '<' when it is on the same line */
        const xmlChar *lt = ctxt->input->cur;
        int col = ctxt->input->col;
        while (lt > ctxt->input->base && *lt != '<' && *lt != '\n' && col > 1) {
            lt--;
            col--;
        }
        d->line = ctxt->input->line;
        d->col = *lt == '<' ? col : ctxt->input->col;
    }
    xmlStopParser(ctxt);
}

int sn_nccl_topo_parse(const char *name, const char *text, size_t len,
                       struct sn_nccl_topo **out, struct sn_error *err)
{
    struct doctype_stop dt = {false, 0, 0};
    struct pctx p;
    xmlParserCtxtPtr ctxt = NULL;
    xmlDocPtr doc = NULL;
    int rc = SN_OK;

    *out = NULL;
    memset(&p, 0, sizeof(p));
    p.name = name;
    p.err = err;
    if (len > SN_NCCL_TOPO_MAX_BYTES || len > INT_MAX)
        return sn_error_set(err, SN_EINPUT,
                            "%s: larger than the %u bytes a topology dump "
                            "may have",
                            name, SN_NCCL_TOPO_MAX_BYTES);
    ctxt = xmlNewParserCtxt();
    if (!ctxt)
        return sn_error_set(err, SN_ENOMEM, "%s: libxml2 could not start",
                            name);
    /* no network, no DTD (refused at its start), no entity expansion;
     * errors kept in the context, never printed */
    ctxt->_private = &dt;
    ctxt->sax->internalSubset = on_doctype;
    doc = xmlCtxtReadMemory(ctxt, text, (int)len, name, NULL,
                            XML_PARSE_NONET | XML_PARSE_NOERROR |
                                XML_PARSE_NOWARNING);
    if (dt.seen) {
        rc = sn_error_at(err, SN_EINPUT, name, dt.line, dt.col,
                         "a DOCTYPE: NCCL's topology dumps carry none, and "
                         "a DTD is not read here");
        goto out;
    }
    if (!doc) {
        xmlErrorPtr e = xmlCtxtGetLastError(ctxt);
        char raw[256] = "not well-formed XML", msg[256];
        if (e && e->message)
            snprintf(raw, sizeof(raw), "%s", e->message);
        raw[strcspn(raw, "\n")] = '\0'; /* libxml2 ends it with one */
        raw[0] = (char)tolower((unsigned char)raw[0]);
        sn_str_clean(msg, sizeof(msg), raw, 0);
        rc = sn_error_at(err, SN_EINPUT, name, e ? e->line : 0, e ? e->int2 : 0,
                         "%s", msg);
        goto out;
    }
    p.t = sn_xcalloc(1, sizeof(*p.t));
    p.t->file = sn_xstrdup(name);
    rc = parse_doc(&p, doc);
    if (rc) {
        sn_nccl_topo_free(p.t);
        goto out;
    }
    *out = p.t;
out:
    xmlFreeDoc(doc);
    xmlFreeParserCtxt(ctxt);
    return rc;
}

int sn_nccl_topo_load(const char *path, struct sn_nccl_topo **out,
                      struct sn_error *err)
{
    char *text = NULL;
    size_t len = 0;
    int rc;

    *out = NULL;
    rc = sn_read_file(path, SN_NCCL_TOPO_MAX_BYTES, &text, &len, err);
    if (!rc)
        rc = sn_nccl_topo_parse(path, text, len, out, err);
    free(text);
    return rc;
}

void sn_nccl_topo_free(struct sn_nccl_topo *t)
{
    if (!t)
        return;
    free(t->file);
    free(t);
}

const char *sn_nccl_path_name(enum sn_nccl_path p)
{
    static const char *const names[] = {"PIX", "PXB", "PHB", "SYS", "-"};

    return (unsigned)p < SN_ARRAY_LEN(names) ? names[p] : "-";
}
