/* test-export.c: the runtime exports against the rules of the programs
 * that read them: the NCCL topology file against NCCL's own parser limits
 * (src/graph/xml.h: MAX_STR_LEN 255, MAX_ATTR_COUNT 16, MAX_SUBS; the
 * system version; bus ids as busIdToInt64 reads them) and the design's
 * NVLink counts, and xmllint where it is installed; topology.conf parsed
 * back (every node in one block, BlockSizes as topology.conf(5) wants);
 * hostlists that expand to what was compressed; hosts files and rankfiles.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "sn/export.h"
#include "sn/spec.h"
#include "sn/topo.h"

/* NCCL's parser limits (xml.h, NVIDIA/nccl 2.30): a name or value under
 * MAX_STR_LEN; 16 attributes; children per node: 32 in the parsers
 * before 2.19 (128, then 640 later), the strictest kept here. */
#define NCCL_MAX_STR_LEN 255
#define NCCL_MAX_ATTR 16
#define NCCL_MAX_SUBS_OLD 32

struct xml_check {
    int depth;
    char stack[16][NCCL_MAX_STR_LEN + 1];
    int subs[16];
    bool version_ok;
    int gpus, nvlink_sum[64], cur_gpu;
    char why[160];
};

/* A bus id as NCCL writes it: "dddd:bb:dd.f" hex, or the MNNVL
 * "fffffff:ffff:ff" placeholder. */
static bool busid_ok(const char *s)
{
    if (!strcmp(s, "fffffff:ffff:ff"))
        return true;
    if (strlen(s) != 12 || s[4] != ':' || s[7] != ':' || s[10] != '.')
        return false;
    for (int i = 0; i < 12; i++)
        if (i != 4 && i != 7 && i != 10 && !isxdigit((unsigned char)s[i]))
            return false;
    return true;
}

static bool fail_at(struct xml_check *c, const char *what, const char *near)
{
    snprintf(c->why, sizeof(c->why), "%s near '%.40s'", what, near);
    return false;
}

/* One element's attributes: count, lengths, the ones the rules name. */
static bool check_attrs(struct xml_check *c, const char *name, const char **p)
{
    int n = 0;

    while (**p == ' ') {
        char key[300], val[300];
        const char *k = ++*p, *q;
        while (**p && **p != '=' && **p != '>' && **p != '/' && **p != ' ')
            (*p)++;
        if (**p != '=')
            break;
        if (*p - k >= NCCL_MAX_STR_LEN || (*p)[1] != '"')
            return fail_at(c, "attribute name too long or value unquoted", k);
        snprintf(key, sizeof(key), "%.*s", (int)(*p - k), k);
        q = *p + 2;
        *p = strchr(q, '"');
        if (!*p || *p - q >= NCCL_MAX_STR_LEN)
            return fail_at(c, "attribute value too long", q);
        snprintf(val, sizeof(val), "%.*s", (int)(*p - q), q);
        (*p)++;
        n++;
        if (!strcmp(name, "system") && !strcmp(key, "version"))
            c->version_ok = !strcmp(val, "1");
        if ((!strcmp(key, "busid") || !strcmp(key, "target")) && !busid_ok(val))
            return fail_at(c, "bus id not in NCCL's form", val);
        if (!strcmp(name, "nvlink") && !strcmp(key, "count") &&
            c->cur_gpu >= 0 && c->cur_gpu < 64)
            c->nvlink_sum[c->cur_gpu] += atoi(val);
    }
    if (n > NCCL_MAX_ATTR)
        return fail_at(c, "more attributes than MAX_ATTR_COUNT", name);
    return true;
}

/* Walk the file as NCCL's tokenizer does: '<' name attrs ('/>' | '>'),
 * closing tags, comments; whitespace only ' ' and '\n'. */
static bool nccl_xml_check(const char *xml, struct xml_check *c)
{
    const char *p = xml;

    memset(c, 0, sizeof(*c));
    c->cur_gpu = -1;
    while (*p) {
        char name[NCCL_MAX_STR_LEN + 1];
        const char *n;
        if (*p == ' ' || *p == '\n') {
            p++;
            continue;
        }
        if (*p != '<')
            return fail_at(c, "expected '<'", p);
        if (!strncmp(p, "<!--", 4)) {
            const char *e = strstr(p, "-->");
            if (!e)
                return fail_at(c, "unterminated comment", p);
            p = e + 3;
            continue;
        }
        if (p[1] == '/') {
            n = p + 2;
            p = strchr(n, '>');
            if (!p || c->depth == 0 ||
                strlen(c->stack[c->depth - 1]) != (size_t)(p - n) ||
                strncmp(c->stack[c->depth - 1], n, (size_t)(p - n)))
                return fail_at(c, "mismatched closing tag", n);
            c->depth--;
            p++;
            continue;
        }
        n = ++p;
        while (*p && *p != ' ' && *p != '>' && *p != '/')
            p++;
        if (p - n >= NCCL_MAX_STR_LEN || p == n)
            return fail_at(c, "bad element name", n);
        snprintf(name, sizeof(name), "%.*s", (int)(p - n), n);
        if (c->depth && ++c->subs[c->depth - 1] > NCCL_MAX_SUBS_OLD)
            return fail_at(c, "more children than MAX_SUBS", name);
        if (!strcmp(name, "gpu"))
            c->cur_gpu = c->gpus++;
        if (!check_attrs(c, name, &p))
            return false;
        if (!strncmp(p, "/>", 2)) {
            p += 2;
        } else if (*p == '>') {
            if (c->depth == 16)
                return fail_at(c, "too deep", name);
            snprintf(c->stack[c->depth], sizeof(c->stack[0]), "%s", name);
            c->subs[c->depth++] = 0;
            p++;
        } else {
            return fail_at(c, "expected '>' or '/>'", p);
        }
    }
    if (c->depth)
        return fail_at(c, "unclosed element", c->stack[c->depth - 1]);
    if (!c->version_ok)
        return fail_at(c, "no <system version=\"1\">", xml);
    return true;
}

/* One example design built, with its default node names and a buffer. */
struct fx {
    struct sn_spec spec;
    struct sn_topo *t;
    char **hosts;
    size_t nh;
    struct sn_buf b;
    struct sn_error err;
};

static int fx_open(struct fx *f, const char *path)
{
    memset(f, 0, sizeof(*f));
    sn_buf_init(&f->b);
    if (sn_spec_load(path, &f->spec, &f->err) ||
        sn_topo_build(&f->spec, &f->t, &f->err) ||
        sn_spec_hosts(&f->spec, NULL, NULL, 0, &f->hosts, &f->nh, &f->err)) {
        printf("  %s: %s\n", path, f->err.msg);
        return -1;
    }
    return 0;
}

static void fx_close(struct fx *f)
{
    sn_spec_hosts_free(f->hosts, f->nh);
    sn_buf_release(&f->b);
    sn_topo_free(f->t);
    sn_spec_release(&f->spec);
}

#define HOSTS(f) ((const char *const *)(f).hosts)

/* xmllint where installed (libxml2-utils, scripts/deps.sh): well-formed */
static void check_xmllint(const char *xml)
{
    char path[] = "/tmp/sn-export-XXXXXX";
    int fd;
    FILE *f;

    if (system("command -v xmllint >/dev/null 2>&1") != 0) {
        printf("  skip: xmllint not installed (scripts/deps.sh)\n");
        return;
    }
    fd = mkstemp(path);
    REQUIRE(fd >= 0);
    f = fdopen(fd, "w");
    REQUIRE(f);
    fputs(xml, f);
    fclose(f);
    char cmd[128];
    snprintf(cmd, sizeof(cmd), "xmllint --noout %s 2>/dev/null", path);
    CHECK(system(cmd) == 0);
    unlink(path);
}

static void nccl_case(const char *path, uint32_t node, int links)
{
    struct fx f;
    struct xml_check c;

    if (fx_open(&f, path) == 0 &&
        sn_export_nccl_topo(f.t, node, &f.b, &f.err) == SN_OK) {
        if (!nccl_xml_check(f.b.data, &c))
            printf("  %s: %s\n", path, c.why);
        CHECK(nccl_xml_check(f.b.data, &c));
        CHECK(c.gpus == f.spec.scaleup.per_node);
        for (int g = 0; g < c.gpus && g < 64; g++)
            CHECK(c.nvlink_sum[g] == links);
        check_xmllint(f.b.data);
    } else {
        CHECK(!"export nccl-topo");
    }
    fx_close(&f);
}

static void test_nccl_topo_hgx_h100_follows_nccl_rules(void)
{
    /* 18 NVLinks per H100 over 4 NVSwitch chips (5/5/4/4) */
    nccl_case("examples/dgx-h100-superpod-su.yaml", 0, 18);
    nccl_case("examples/dgx-h100-superpod-su.yaml", 30, 18);
}

static void test_nccl_topo_gb200_follows_nccl_rules(void)
{
    nccl_case("examples/gb200-nvl72.yaml", 17, 18);
}

static void test_nccl_topo_mi300x_full_mesh_counts_xgmi(void)
{
    struct fx f;
    struct xml_check c;
    size_t peers = 0;

    if (fx_open(&f, "examples/mi300x-16-servers.yaml") == 0 &&
        sn_export_nccl_topo(f.t, 3, &f.b, &f.err) == SN_OK) {
        CHECK(nccl_xml_check(f.b.data, &c));
        /* RCCL's element: one <xgmi> per peer, 7 peers a GPU, 8 GPUs */
        for (const char *p = f.b.data; (p = strstr(p, "<xgmi ")); p++)
            peers++;
        CHECK(peers == 8 * 7);
        CHECK(strstr(f.b.data, "<nvlink") == NULL);
    } else {
        CHECK(!"export nccl-topo");
    }
    fx_close(&f);
}

static void test_nccl_topo_nvlink_full_mesh_names_peer_gpus(void)
{
    const char *yaml = "accelerator: h100-sxm5-80gb\nsupernode:\n"
                       "  accelerators: 8\n  per_node: 8\n"
                       "  fabric: full_mesh\n  links_per_accelerator: 14\n"
                       "supernodes: 2\n";
    struct sn_spec spec = {0};
    struct sn_topo *t = NULL;
    struct sn_buf b = SN_BUF_INIT;
    struct sn_error err;
    struct xml_check c;
    size_t peers = 0;

    REQUIRE(sn_spec_parse("mesh.yaml", yaml, strlen(yaml), &spec, &err) ==
            SN_OK);
    REQUIRE(sn_topo_build(&spec, &t, &err) == SN_OK);
    REQUIRE(sn_export_nccl_topo(t, 1, &b, &err) == SN_OK);
    CHECK(nccl_xml_check(b.data, &c));
    /* 14 links over 7 peers: 2 to each, tclass a GPU's (0x0302xx) */
    for (const char *p = b.data;
         (p = strstr(p, "count=\"2\" tclass=\"0x030200\"")); p++)
        peers++;
    CHECK(peers == 8 * 7);
    for (int g = 0; g < 8; g++)
        CHECK(c.nvlink_sum[g] == 14);
    CHECK(strstr(b.data, "0x068000") == NULL);
    sn_buf_release(&b);
    sn_topo_free(t);
    sn_spec_release(&spec);
}

static void test_nccl_topo_takes_the_machines_bus_ids_and_names(void)
{
    const char *text = "# one server\ngpu 0 00000000:1B:00.0\n"
                       "nic 1 mlx5_3 0000:40:00.0 # rail 1\n";
    struct sn_nccl_machine m;
    struct sn_error err;
    struct fx f;
    struct xml_check c;

    REQUIRE(sn_nccl_machine_parse("m.txt", text, strlen(text), &m, &err) ==
            SN_OK);
    CHECK_STR(m.gpu_busid[0], "0000:1b:00.0");
    CHECK_STR(m.nic_name[1], "mlx5_3");
    CHECK(sn_nccl_machine_parse("m.txt", "gpu 32 0000:1b:00.0", 19, &m, &err) ==
          SN_EINPUT);
    CHECK_CONTAINS(err.msg, "m.txt:1:5:");
    CHECK(sn_nccl_machine_parse("m.txt", "nic 0 mlx5_0\n", 13, &m, &err) ==
          SN_EINPUT);
    CHECK(sn_nccl_machine_parse("m.txt", "gpu 0 0000:1b:00.0 x", 20, &m,
                                &err) == SN_EINPUT);
    REQUIRE(sn_nccl_machine_parse("m.txt", text, strlen(text), &m, &err) ==
            SN_OK);
    if (fx_open(&f, "examples/dgx-h100-superpod-su.yaml") == 0 &&
        sn_export_nccl_topo_on(f.t, 0, &m, &f.b, &f.err) == SN_OK) {
        CHECK(nccl_xml_check(f.b.data, &c));
        CHECK_CONTAINS(f.b.data, "<pci busid=\"0000:1b:00.0\" class=\"0x0302");
        CHECK_CONTAINS(f.b.data, "busid=\"0000:40:00.0\" class=\"0x0207");
        CHECK_CONTAINS(f.b.data, "name=\"mlx5_3\" dev=\"1\"");
        /* the NICs the file does not name keep clear of its names */
        CHECK(strstr(f.b.data, "name=\"mlx5_3\" dev=\"3\"") == NULL);
    } else {
        CHECK(!"export nccl-topo --machine");
    }
    fx_close(&f);
}

static void test_nccl_topo_refuses_other_vendors_and_nodes(void)
{
    struct fx f;

    if (fx_open(&f, "examples/cloudmatrix-384.yaml") == 0) {
        CHECK(sn_export_nccl_topo(f.t, 0, &f.b, &f.err) == SN_EINPUT);
        CHECK_CONTAINS(f.err.msg, "Huawei");
    }
    fx_close(&f);
    if (fx_open(&f, "examples/gb200-nvl72.yaml") == 0) {
        CHECK(sn_export_nccl_topo(f.t, 18, &f.b, &f.err) == SN_EINPUT);
        CHECK_CONTAINS(f.err.msg, "0 to 17");
    }
    fx_close(&f);
}

static void test_nccl_checker_catches_broken_files(void)
{
    struct xml_check c;
    char many[2048] = "<system version=\"1\"><cpu numaid=\"0\"";

    CHECK(!nccl_xml_check("<system version=\"2\"></system>", &c));
    CHECK(!nccl_xml_check("<system version=\"1\"><cpu></system>", &c));
    CHECK(!nccl_xml_check("<system version=\"1\"><pci busid=\"1b:00.0\"/>"
                          "</system>",
                          &c));
    for (int i = 0; i < 17; i++)
        snprintf(many + strlen(many), sizeof(many) - strlen(many), " a%d=\"1\"",
                 i);
    sn_strlcpy(many + strlen(many), "/></system>", sizeof(many) - strlen(many));
    CHECK(!nccl_xml_check(many, &c));
    CHECK(nccl_xml_check("<system version=\"1\"><!-- x --></system>", &c));
}

/* ---- hostlists ------------------------------------------------------------
 */

static void roundtrip(const char *const *names, size_t n, const char *want)
{
    struct sn_buf b = SN_BUF_INIT;
    struct sn_error err;
    char **back = NULL;
    size_t nb = 0;

    sn_hostlist_compress(names, n, &b);
    if (want)
        CHECK_STR(b.data, want);
    REQUIRE(sn_hostlist_expand(b.data, 100000, &back, &nb, &err) == SN_OK);
    CHECK(nb == n);
    for (size_t i = 0; i < n && i < nb; i++)
        CHECK_STR(back[i], names[i]);
    sn_spec_hosts_free(back, nb);
    sn_buf_release(&b);
}

static void test_hostlist_compresses_and_expands_back(void)
{
    const char *pad[] = {"node098", "node099", "node100", "node101", "node105"};
    const char *bare[] = {"gpu8", "gpu9", "gpu10", "gpu11"};
    const char *mixed[] = {"a1", "b", "a2", "c007", "c008", "x.y-1"};
    const char *zero[] = {"n0", "n1", "n01"};

    roundtrip(pad, 5, "node[098-101,105]");
    roundtrip(bare, 4, "gpu[8-11]");
    roundtrip(mixed, 6, "a1,b,a2,c[007-008],x.y-1");
    roundtrip(zero, 3, "n[0-1],n01");
}

static void test_hostlist_rejects_malformed(void)
{
    static const char *const bad[] = {"n[1-", "n[2-1]", "n[a]", "n]",
                                      "a,,b", "n[[1]]", "n[]"};
    struct sn_error err;
    char **names = NULL;
    size_t n = 0;

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        CHECK(sn_hostlist_expand(bad[i], 1000, &names, &n, &err) == SN_EINPUT);
        CHECK(names == NULL && n == 0);
    }
    CHECK(sn_hostlist_expand("n[1-100000]", 1000, &names, &n, &err) ==
          SN_EINPUT);
}

/* ---- hosts files ----------------------------------------------------------
 */

static void test_hosts_file_errors_are_located(void)
{
    struct sn_spec spec = {0};
    struct sn_error err;
    char **names = NULL;
    size_t n = 0;
    const char *bad_name = "# the SU\nh1\nh 2\n";
    const char *twice = "a\nb\na\n";

    const char *yaml = "accelerator: h100-sxm5-80gb\nsupernode:\n"
                       "  accelerators: 8\n  per_node: 8\nsupernodes: 3\n";

    REQUIRE(sn_spec_parse("s.yaml", yaml, strlen(yaml), &spec, &err) == SN_OK);
    CHECK(sn_spec_hosts(&spec, "h.txt", bad_name, strlen(bad_name), &names, &n,
                        &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "h.txt:3:3:");
    CHECK(sn_spec_hosts(&spec, "h.txt", "a\nb\n", 4, &names, &n, &err) ==
          SN_EINPUT);
    CHECK_CONTAINS(err.msg, "2 hosts for the design's 3 nodes");
    CHECK(sn_spec_hosts(&spec, "h.txt", twice, strlen(twice), &names, &n,
                        &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "'a' is listed twice");
    REQUIRE(sn_spec_hosts(&spec, "h.txt", " x1 # rack 1\n\nx2\nx3", 19, &names,
                          &n, &err) == SN_OK);
    CHECK(n == 3);
    CHECK_STR(names[0], "x1");
    CHECK_STR(names[2], "x3");
    sn_spec_hosts_free(names, n);
    REQUIRE(sn_spec_hosts(&spec, NULL, NULL, 0, &names, &n, &err) == SN_OK);
    CHECK_STR(names[2], "node002");
    sn_spec_hosts_free(names, n);
    sn_spec_release(&spec);
}

/* ---- Slurm -----------------------------------------------------------------
 */

/* topology.conf read back as slurmctld would take it (topology.conf(5)):
 * each node in exactly one block, every block at least the base size,
 * each size a power-of-two multiple of the one before; for the tree every
 * node under a leaf and every child switch defined. Returns 0 or a line
 * saying what is wrong. */
struct slurm_read {
    size_t blocks, switches;
    long long sizes[8];
    int nsizes;
};

static const char *slurm_check(const char *conf, char **hosts, size_t nh,
                               struct slurm_read *r)
{
    static char why[160];
    int *seen = sn_xcalloc(nh + 1, sizeof(*seen));
    char *text = sn_xstrdup(conf), *cur = text, *line;
    char *defined = sn_xstrdup(" ");
    const char *bad = NULL;
    long long min_block = -1;

    memset(r, 0, sizeof(*r));
    while (!bad && (line = sn_tok_next(&cur, '\n'))) {
        char *hash = strchr(line, '#'), *nodes, *sw, **names = NULL;
        size_t n = 0;
        struct sn_error err;
        if (hash)
            *hash = '\0';
        if (!strncmp(line, "BlockSizes=", 11)) {
            for (char *q = line + 11; *q && r->nsizes < 8;) {
                r->sizes[r->nsizes++] = strtoll(q, &q, 10);
                q += *q == ',';
            }
            continue;
        }
        nodes = strstr(line, "Nodes=");
        sw = strstr(line, "Switches=");
        if (!strncmp(line, "BlockName=", 10))
            r->blocks++;
        else if (!strncmp(line, "SwitchName=", 11)) {
            char *e = strchr(line + 11, ' ');
            size_t len = e ? (size_t)(e - line - 11) : strlen(line + 11);
            if (len > 64)
                bad = "switch name over 64 characters";
            r->switches++;
            size_t dl = strlen(defined);
            defined = sn_xrealloc(defined, dl + len + 2);
            snprintf(defined + dl, len + 2, "%.*s ", (int)len, line + 11);
        } else if (*line && *line != ' ')
            bad = "a line that is neither a block nor a switch";
        if (nodes) {
            char *e = strchr(nodes, ' ');
            if (e)
                *e = '\0';
            if (sn_hostlist_expand(nodes + 6, nh + 1, &names, &n, &err))
                bad = "a hostlist that does not expand";
            for (size_t i = 0; i < n; i++) {
                size_t k = 0;
                while (k < nh && strcmp(hosts[k], names[i]))
                    k++;
                if (k == nh)
                    bad = "a node that is not in the design";
                else
                    seen[k]++;
            }
            if (!strncmp(line, "BlockName=", 10) &&
                (min_block < 0 || (long long)n < min_block))
                min_block = (long long)n;
            sn_spec_hosts_free(names, n);
        }
        (void)sw;
    }
    for (size_t k = 0; !bad && k < nh; k++)
        if (r->blocks ? seen[k] != 1 : seen[k] < 1)
            bad = r->blocks ? "a node not in exactly one block"
                            : "a node under no switch";
    if (!bad && r->blocks && (r->nsizes == 0 || r->sizes[0] > min_block))
        bad = "BlockSizes missing or its base larger than a block";
    for (int i = 1; !bad && i < r->nsizes; i++) {
        long long q = r->sizes[i] / r->sizes[i - 1];
        if (r->sizes[i] % r->sizes[i - 1] || q < 2 || (q & (q - 1)))
            bad = "a BlockSizes entry not a power-of-two multiple";
    }
    snprintf(why, sizeof(why), "%s", bad ? bad : "");
    free(defined);
    free(text);
    free(seen);
    return bad ? why : NULL;
}

static void slurm_case(const char *path, unsigned plugin, size_t blocks)
{
    struct fx f;
    struct slurm_read r;
    const char *why;

    if (fx_open(&f, path) == 0 &&
        sn_export_slurm(f.t, HOSTS(f), plugin, &f.b, &f.err) == SN_OK) {
        why = slurm_check(f.b.data, f.hosts, f.nh, &r);
        if (why)
            printf("  %s: %s\n", path, why);
        CHECK(why == NULL);
        CHECK(r.blocks == blocks);
        CHECK(plugin == SN_SLURM_BLOCK ? r.switches == 0 : r.switches > 0);
    } else {
        CHECK(!"export slurm");
    }
    fx_close(&f);
}

static void test_slurm_block_has_every_node_once(void)
{
    slurm_case("examples/gb200-nvl72.yaml", SN_SLURM_BLOCK, 1);
    slurm_case("examples/cloudmatrix-384.yaml", SN_SLURM_BLOCK, 1);
    slurm_case("examples/gb200-nvl36x2.yaml", SN_SLURM_BLOCK, 1);
}

static void test_slurm_tree_puts_every_node_under_a_leaf(void)
{
    slurm_case("examples/dgx-h100-superpod-su.yaml", SN_SLURM_TREE, 0);
    slurm_case("examples/dgx-h100-superpod-4su.yaml", SN_SLURM_TREE, 0);
    slurm_case("examples/mi300x-16-servers.yaml", SN_SLURM_TREE, 0);
    slurm_case("examples/cloudmatrix-384.yaml", SN_SLURM_TREE, 0);
}

static void test_slurm_checker_catches_broken_files(void)
{
    char *hosts[] = {"n1", "n2", "n3", "n4"};
    struct slurm_read r;

    CHECK(slurm_check("BlockName=a Nodes=n[1-2]\nBlockSizes=2\n", hosts, 4,
                      &r) != NULL);
    CHECK(slurm_check("BlockName=a Nodes=n[1-2]\nBlockName=b Nodes=n[2-4]\n"
                      "BlockSizes=2\n",
                      hosts, 4, &r) != NULL);
    CHECK(slurm_check("BlockName=a Nodes=n[1-2]\nBlockName=b Nodes=n[3-4]\n"
                      "BlockSizes=2,6\n",
                      hosts, 4, &r) != NULL);
    CHECK(slurm_check("BlockName=a Nodes=n[1-2]\nBlockName=b Nodes=n[3-4]\n"
                      "BlockSizes=2,4\n",
                      hosts, 4, &r) == NULL);
    CHECK(slurm_check("SwitchName=s Nodes=n[1-3]\n", hosts, 4, &r) != NULL);
}

static void test_slurm_refuses_a_plugin_with_nothing_to_do(void)
{
    struct fx f;

    if (fx_open(&f, "examples/dgx-h100-superpod-su.yaml") == 0) {
        CHECK(sn_export_slurm_plugins(f.t) == SN_SLURM_TREE);
        CHECK(sn_export_slurm(f.t, HOSTS(f), SN_SLURM_BLOCK, &f.b, &f.err) ==
              SN_EINPUT);
        CHECK_CONTAINS(f.err.msg, "one node");
    }
    fx_close(&f);
    if (fx_open(&f, "examples/gb200-nvl72.yaml") == 0) {
        CHECK(sn_export_slurm_plugins(f.t) == SN_SLURM_BLOCK);
        CHECK(sn_export_slurm(f.t, HOSTS(f), SN_SLURM_TREE, &f.b, &f.err) ==
              SN_EINPUT);
        CHECK_CONTAINS(f.err.msg, "external");
    }
    fx_close(&f);
}

/* ---- MPI and Kubernetes
 * ------------------------------------------------------ */

static void test_rankfile_fills_domains_with_consecutive_ranks(void)
{
    struct fx f;
    int seen[72] = {0};
    long ranks = 0;

    if (fx_open(&f, "examples/gb200-nvl72.yaml") ||
        sn_export_rankfile(f.t, HOSTS(f), &f.b, &f.err)) {
        CHECK(!"export rankfile");
        fx_close(&f);
        return;
    }
    for (const char *p = f.b.data; (p = strstr(p, "\nrank ")); p++) {
        long r;
        unsigned node, sock, core;
        if (sscanf(p, "\nrank %ld=node%u slot=%u:%u", &r, &node, &sock,
                   &core) != 4 ||
            r < 0 || r >= 72) {
            CHECK(!"a rankfile line as Open MPI reads it");
            break;
        }
        seen[r]++;
        /* 4 GPUs a tray: ranks 4k..4k+3 on tray k, 2 on each Grace */
        CHECK(node == (unsigned)(r / 4));
        CHECK(sock == (unsigned)(r % 4 / 2) && core == (unsigned)(r % 2));
        ranks++;
    }
    CHECK(ranks == 72);
    for (int r = 0; r < 72; r++)
        CHECK(seen[r] == 1);
    fx_close(&f);
}

static void test_k8s_labels_only_multi_node_domains(void)
{
    struct fx f;
    size_t labels = 0;
    bool multi = false;

    if (fx_open(&f, "examples/gb200-nvl72.yaml") == 0 &&
        sn_export_k8s(f.t, HOSTS(f), &f.b, &multi, &f.err) == SN_OK) {
        CHECK(multi);
        for (const char *p = f.b.data; (p = strstr(p, "kubectl label")); p++)
            labels++;
        CHECK(labels == 18);
        CHECK_CONTAINS(f.b.data,
                       "node017 " SN_K8S_CLIQUE_LABEL "=gb200-nvl72.0");
    } else {
        CHECK(!"export k8s");
    }
    fx_close(&f);
    if (fx_open(&f, "examples/mi300x-16-servers.yaml") == 0 &&
        sn_export_k8s(f.t, HOSTS(f), &f.b, &multi, &f.err) == SN_OK)
        CHECK(!multi);
    else
        CHECK(!"export k8s");
    fx_close(&f);
}

static const struct sn_test cases[] = {
    T(test_nccl_topo_hgx_h100_follows_nccl_rules),
    T(test_nccl_topo_gb200_follows_nccl_rules),
    T(test_nccl_topo_mi300x_full_mesh_counts_xgmi),
    T(test_nccl_topo_nvlink_full_mesh_names_peer_gpus),
    T(test_nccl_topo_takes_the_machines_bus_ids_and_names),
    T(test_nccl_topo_refuses_other_vendors_and_nodes),
    T(test_nccl_checker_catches_broken_files),
    T(test_hostlist_compresses_and_expands_back),
    T(test_hostlist_rejects_malformed),
    T(test_hosts_file_errors_are_located),
    T(test_slurm_block_has_every_node_once),
    T(test_slurm_tree_puts_every_node_under_a_leaf),
    T(test_slurm_checker_catches_broken_files),
    T(test_slurm_refuses_a_plugin_with_nothing_to_do),
    T(test_rankfile_fills_domains_with_consecutive_ranks),
    T(test_k8s_labels_only_multi_node_domains),
};

SN_TEST_MAIN(cases)
