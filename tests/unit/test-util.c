/* test-util.c: units, errors, buffers, JSON, tables, YAML, CSV, files. */
/* covers: util */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "harness.h"
#include "sn/util.h"

static double parse_ok(const char *s, enum sn_unit_kind k)
{
    struct sn_error err;
    double v = -1;

    sn_error_clear(&err);
    if (sn_unit_parse(s, k, false, &v, &err) != SN_OK) {
        printf("  unexpected error for '%s': %s\n", s, err.msg);
        return -12345;
    }
    return v;
}

static void test_units_parse_bandwidth_bits_and_bytes(void)
{
    CHECK_NEAR(parse_ok("400Gbps", SN_UNIT_BANDWIDTH), 50e9, 1e-12);
    CHECK_NEAR(parse_ok("400 Gb/s", SN_UNIT_BANDWIDTH), 50e9, 1e-12);
    CHECK_NEAR(parse_ok("900GB/s", SN_UNIT_BANDWIDTH), 900e9, 1e-12);
    CHECK_NEAR(parse_ok("1.8TB/s", SN_UNIT_BANDWIDTH), 1.8e12, 1e-12);
    CHECK_NEAR(parse_ok("25 GBps", SN_UNIT_BANDWIDTH), 25e9, 1e-12);
}

static void test_units_parse_power_time_length(void)
{
    CHECK_NEAR(parse_ok("120kW", SN_UNIT_POWER), 120e3, 1e-12);
    CHECK_NEAR(parse_ok("700 W", SN_UNIT_POWER), 700, 1e-12);
    CHECK_NEAR(parse_ok("415V", SN_UNIT_VOLTAGE), 415, 1e-12);
    CHECK_NEAR(parse_ok("5min", SN_UNIT_TIME), 300, 1e-12);
    CHECK_NEAR(parse_ok("30 s", SN_UNIT_TIME), 30, 1e-12);
    CHECK_NEAR(parse_ok("2h", SN_UNIT_TIME), 7200, 1e-12);
    CHECK_NEAR(parse_ok("2.5m", SN_UNIT_LENGTH), 2.5, 1e-12);
    CHECK_NEAR(parse_ok("50cm", SN_UNIT_LENGTH), 0.5, 1e-12);
    CHECK_NEAR(parse_ok("10K", SN_UNIT_TEMPERATURE), 10, 1e-12);
    CHECK_NEAR(parse_ok("989.4TFLOPS", SN_UNIT_FLOPS), 989.4e12, 1e-12);
    CHECK_NEAR(parse_ok("180L/min", SN_UNIT_FLOW), 180e-3 / 60, 1e-12);
}

static void test_units_parse_bytes_decimal_and_binary(void)
{
    CHECK_NEAR(parse_ok("80GB", SN_UNIT_BYTES), 80e9, 1e-12);
    CHECK_NEAR(parse_ok("64GiB", SN_UNIT_BYTES), 64.0 * (1 << 30), 1e-12);
    CHECK_NEAR(parse_ok("2.3TB", SN_UNIT_BYTES), 2.3e12, 1e-12);
}

static void test_units_count_ratio_and_separators(void)
{
    CHECK_NEAR(parse_ok("70B", SN_UNIT_COUNT), 70e9, 1e-12);
    CHECK_NEAR(parse_ok("2,560", SN_UNIT_COUNT), 2560, 1e-12);
    CHECK_NEAR(parse_ok("95%", SN_UNIT_RATIO), 0.95, 1e-12);
    CHECK_NEAR(parse_ok("2:1", SN_UNIT_RATIO), 2.0, 1e-12);
    CHECK_NEAR(parse_ok("0.9", SN_UNIT_RATIO), 0.9, 1e-12);
}

static void test_units_reject_bad_text_with_reason(void)
{
    struct sn_error err;
    double v;

    CHECK(sn_unit_parse("400", SN_UNIT_BANDWIDTH, false, &v, &err) ==
          SN_EINPUT);
    CHECK_CONTAINS(err.msg, "needs a unit");
    CHECK(sn_unit_parse("400Gbsp", SN_UNIT_BANDWIDTH, false, &v, &err) ==
          SN_EINPUT);
    CHECK_CONTAINS(err.msg, "did you mean 'Gbps'");
    CHECK(sn_unit_parse("fast", SN_UNIT_BANDWIDTH, false, &v, &err) ==
          SN_EINPUT);
    CHECK(sn_unit_parse("inf W", SN_UNIT_POWER, false, &v, &err) == SN_EINPUT);
    CHECK(sn_unit_parse("nan", SN_UNIT_COUNT, false, &v, &err) == SN_EINPUT);
    CHECK(sn_unit_parse("0x10", SN_UNIT_COUNT, false, &v, &err) == SN_EINPUT);
    CHECK(sn_unit_parse("1e999W", SN_UNIT_POWER, false, &v, &err) == SN_EINPUT);
    CHECK(sn_unit_parse("5 kW extra", SN_UNIT_POWER, false, &v, &err) ==
          SN_EINPUT);
    /* case matters between bits and bytes: 'gb/s' is ambiguous */
    CHECK(sn_unit_parse("400gb/s", SN_UNIT_BANDWIDTH, false, &v, &err) ==
          SN_EINPUT);
}

static void test_units_parse_size_like_nccl_tests(void)
{
    uint64_t v = 0;
    struct sn_error err;

    CHECK(sn_unit_parse_size("16G", &v, &err) == SN_OK && v == 1ULL << 34);
    CHECK(sn_unit_parse_size("8", &v, &err) == SN_OK && v == 8);
    CHECK(sn_unit_parse_size("1M", &v, &err) == SN_OK && v == 1 << 20);
    CHECK(sn_unit_parse_size("4K", &v, &err) == SN_OK && v == 4096);
    CHECK(sn_unit_parse_size("-1", &v, &err) == SN_EINPUT);
    CHECK(sn_unit_parse_size("1X", &v, &err) == SN_EINPUT);
}

static void test_units_format_three_figures(void)
{
    char b[64];

    CHECK_STR(sn_unit_format(50e9, SN_UNIT_BANDWIDTH, b, sizeof(b)),
              "50.0 GB/s");
    CHECK_STR(sn_unit_format(450e9, SN_UNIT_BANDWIDTH, b, sizeof(b)),
              "450 GB/s");
    CHECK_STR(sn_unit_format(132e3, SN_UNIT_POWER, b, sizeof(b)), "132 kW");
    CHECK_STR(sn_unit_format(2.5e3, SN_UNIT_POWER, b, sizeof(b)), "2.50 kW");
    CHECK_STR(sn_unit_format(300, SN_UNIT_TIME, b, sizeof(b)), "300 s");
    CHECK_STR(sn_unit_format(1800, SN_UNIT_TIME, b, sizeof(b)), "30.0 min");
    CHECK_STR(sn_unit_format(173.0e-3 / 60, SN_UNIT_FLOW, b, sizeof(b)),
              "173 L/min");
}

/* A stored result carries its unit by name; the store's text, check's
 * findings and the baseline tables all format through this one call. */
static void test_units_format_by_stored_unit_name(void)
{
    char b[64];

    CHECK_STR(sn_unit_format_named(23.4e6, "B/s", b, sizeof(b)), "23.4 MB/s");
    CHECK_STR(sn_unit_format_named(12.1e-6, "s", b, sizeof(b)), "12.1 us");
    CHECK_STR(sn_unit_format_named(4096, "B", b, sizeof(b)), "4.10 kB");
    CHECK_STR(sn_unit_format_named(0.912345, "ratio", b, sizeof(b)),
              "0.9123 ratio");
    CHECK_STR(sn_unit_format_named(7, "", b, sizeof(b)), "7");
}

/* Splitting in place as strtok_r did: empty tokens skipped, the text
 * after the last delimiter kept, NULL at the end and after it. */
static void test_tok_next_splits_like_strtok_r(void)
{
    char text[] = "\n\na: 1\n\nb: 2\nc";
    char none[] = "///";
    char *cur = text, *t;

    REQUIRE((t = sn_tok_next(&cur, '\n')) != NULL);
    CHECK_STR(t, "a: 1");
    REQUIRE((t = sn_tok_next(&cur, '\n')) != NULL);
    CHECK_STR(t, "b: 2");
    REQUIRE((t = sn_tok_next(&cur, '\n')) != NULL);
    CHECK_STR(t, "c");
    CHECK(sn_tok_next(&cur, '\n') == NULL);
    CHECK(sn_tok_next(&cur, '\n') == NULL);
    cur = none;
    CHECK(sn_tok_next(&cur, '/') == NULL);
}

static void test_error_at_formats_location(void)
{
    struct sn_error err;

    CHECK(sn_error_at(&err, SN_EINPUT, "spec.yaml", 12, 5, "unknown key '%s'",
                      "x") == SN_EINPUT);
    CHECK_STR(err.msg, "spec.yaml:12:5: unknown key 'x'");
    sn_error_at(&err, SN_EINPUT, "f", 0, 0, "empty");
    CHECK_STR(err.msg, "f: empty");
    CHECK(sn_exit_code(SN_EINPUT) == 2);
    CHECK(sn_exit_code(SN_EIO) == 3);
    CHECK(sn_exit_code(SN_ECHECK) == 1);
}

static void test_suggest_finds_near_names(void)
{
    static const char *const names[] = {"accelerator", "supernode", "racks",
                                        "power", NULL};

    CHECK_STR(sn_suggest("acelerator", names), "accelerator");
    CHECK_STR(sn_suggest("rack", names), "racks");
    CHECK(sn_suggest("zebra", names) == NULL);
    CHECK(sn_edit_distance("kitten", "sitting") == 3);
}

static void test_fmt_count_groups_thousands(void)
{
    char buf[32];

    CHECK_STR(sn_fmt_count(0, buf, sizeof(buf)), "0");
    CHECK_STR(sn_fmt_count(999, buf, sizeof(buf)), "999");
    CHECK_STR(sn_fmt_count(1000, buf, sizeof(buf)), "1,000");
    CHECK_STR(sn_fmt_count(2404080, buf, sizeof(buf)), "2,404,080");
    /* a short buffer is cut, never overrun */
    CHECK_STR(sn_fmt_count(2404080, buf, 5), "2,4");
}

static void test_suggest_ties_prefer_same_length(void)
{
    /* both one edit away; in either order, the mistyped letter wins */
    static const char *const a[] = {"supernode", "supernodes", NULL};
    static const char *const b[] = {"supernodes", "supernode", NULL};

    CHECK_STR(sn_suggest("supernodez", a), "supernodes");
    CHECK_STR(sn_suggest("supernodez", b), "supernodes");
    CHECK_STR(sn_suggest("supernod", a), "supernode");
}

static void test_buf_grows_and_detaches(void)
{
    struct sn_buf b;
    char *s;
    size_t len;

    sn_buf_init(&b);
    CHECK_STR(b.data, "");
    for (int i = 0; i < 1000; i++)
        sn_buf_printf(&b, "%d,", i);
    CHECK(b.len > 3000);
    CHECK(strncmp(b.data, "0,1,2,", 6) == 0);
    s = sn_buf_detach(&b, &len);
    CHECK(len == strlen(s));
    CHECK(b.len == 0);
    free(s);
    sn_buf_release(&b);
}

static void test_json_writer_is_valid_and_ordered(void)
{
    struct sn_buf b;
    struct sn_json j;

    sn_buf_init(&b);
    sn_json_init(&j, &b, false);
    sn_json_obj_begin(&j);
    sn_json_kstr(&j, "schema", "supernode.test/1");
    sn_json_key(&j, "a");
    sn_json_arr_begin(&j);
    sn_json_int(&j, 1);
    sn_json_num(&j, 2.5);
    sn_json_num(&j, 0.0 / 0.0);
    sn_json_str(&j, "q\"\n");
    sn_json_arr_end(&j);
    sn_json_key(&j, "e");
    sn_json_obj_begin(&j);
    sn_json_obj_end(&j);
    sn_json_kbool(&j, "t", true);
    sn_json_obj_end(&j);
    CHECK_STR(b.data, "{\"schema\":\"supernode.test/1\",\"a\":[1,2.5,null,"
                      "\"q\\\"\\n\"],\"e\":{},\"t\":true}");
    sn_buf_release(&b);
}

static void test_json_pretty_indents(void)
{
    struct sn_buf b;
    struct sn_json j;

    sn_buf_init(&b);
    sn_json_init(&j, &b, true);
    sn_json_obj_begin(&j);
    sn_json_kint(&j, "n", 3);
    sn_json_key(&j, "l");
    sn_json_arr_begin(&j);
    sn_json_int(&j, 1);
    sn_json_arr_end(&j);
    sn_json_obj_end(&j);
    CHECK_STR(b.data, "{\n  \"n\": 3,\n  \"l\": [\n    1\n  ]\n}\n");
    sn_buf_release(&b);
}

static void test_table_pads_columns(void)
{
    struct sn_table t;
    struct sn_buf b;

    sn_table_init(&t, "");
    sn_table_col(&t, "name", false);
    sn_table_col(&t, "value", true);
    sn_table_row(&t);
    sn_table_cell(&t, "a");
    sn_table_cell(&t, "%d", 1234567);
    sn_table_row(&t);
    sn_table_cell(&t, "longer");
    sn_table_cell(&t, "2");
    sn_buf_init(&b);
    sn_table_render(&t, &b);
    CHECK_STR(b.data, "name      value\n"
                      "a       1234567\n"
                      "longer        2\n");
    sn_table_release(&t);
    sn_buf_release(&b);
}

static void test_yaml_tree_with_positions(void)
{
    const char *text = "a: 1\nb:\n  - x\n  - {c: \"q\"}\n";
    struct sn_yaml_doc doc;
    struct sn_error err;
    struct sn_yaml *b, *c;

    REQUIRE(sn_yaml_parse("t.yaml", text, strlen(text), &doc, &err) == SN_OK);
    REQUIRE(doc.root && doc.root->type == SN_YAML_MAP && doc.root->n == 2);
    CHECK_STR(sn_yaml_get(doc.root, "a")->value, "1");
    b = sn_yaml_get(doc.root, "b");
    REQUIRE(b && b->type == SN_YAML_SEQ && b->n == 2);
    CHECK(b->items[0]->line == 3 && b->items[0]->col == 5);
    c = sn_yaml_get(b->items[1], "c");
    REQUIRE(c);
    CHECK(c->quoted);
    CHECK(c->line == 4);
    sn_yaml_doc_release(&doc);
}

static void expect_yaml_error(const char *text, size_t len, const char *what)
{
    struct sn_yaml_doc doc;
    struct sn_error err;

    sn_error_clear(&err);
    CHECK(sn_yaml_parse("bad.yaml", text, len, &doc, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, what);
    CHECK(doc.root == NULL);
}

static void test_yaml_refuses_bad_documents(void)
{
    static const char bin[] = "a: \x01\x02\x03\n";
    char deep[400];
    size_t k = 0;

    expect_yaml_error("a: 1\na: 2\n", 10, "bad.yaml:2:1: duplicate key 'a'");
    expect_yaml_error("a: &x 1\nb: *x\n", 13, "aliases");
    expect_yaml_error("a: [1, 2\n", 9, "bad.yaml:");
    expect_yaml_error("---\na: 1\n---\nb: 2\n", 18, "more than one document");
    expect_yaml_error("? [a]\n: 1\n", 10, "mapping key");
    expect_yaml_error(bin, sizeof(bin) - 1, "bad.yaml");
    for (int i = 0; i < 100; i++)
        deep[k++] = '[';
    deep[k] = '\0';
    expect_yaml_error(deep, k, "nested deeper than");
}

static void test_yaml_wide_mappings_and_lists_load(void)
{
    struct sn_buf text;
    struct sn_yaml_doc doc;
    struct sn_error err;

    /* 20,000 keys and a 20,000-item list: the duplicate-key check and the
     * growth of containers must not be quadratic, and a duplicate far down
     * a wide mapping is still found */
    sn_buf_init(&text);
    for (int i = 0; i < 20000; i++)
        sn_buf_printf(&text, "k%d: %d\n", i, i);
    sn_buf_puts(&text, "l:\n");
    for (int i = 0; i < 20000; i++)
        sn_buf_printf(&text, "  - %d\n", i);
    REQUIRE(sn_yaml_parse("w.yaml", text.data, text.len, &doc, &err) == SN_OK);
    CHECK(doc.root->n == 20001);
    CHECK(sn_yaml_get(doc.root, "l")->n == 20000);
    CHECK_STR(sn_yaml_get(doc.root, "k19999")->value, "19999");
    sn_yaml_doc_release(&doc);
    sn_buf_puts(&text, "k12345: again\n");
    CHECK(sn_yaml_parse("w.yaml", text.data, text.len, &doc, &err) ==
          SN_EINPUT);
    CHECK_CONTAINS(err.msg, "w.yaml:40002:1: duplicate key 'k12345' (first "
                            "given at line 12346)");
    sn_buf_release(&text);
}

static void test_csv_handles_quotes_and_crlf(void)
{
    const char *text = "a,b,c\r\n1,\"x, \"\"y\"\"\",3\n\n4,,\n";
    struct sn_csv csv;
    struct sn_error err;

    REQUIRE(sn_csv_parse("t.csv", text, strlen(text), 100, &csv, &err) ==
            SN_OK);
    REQUIRE(csv.nrows == 3);
    CHECK(csv.nfields[1] == 3);
    CHECK_STR(csv.fields[1][1], "x, \"y\"");
    CHECK(csv.nfields[2] == 3);
    CHECK_STR(csv.fields[2][1], "");
    CHECK(csv.lines[2] == 4);
    CHECK(sn_csv_column(&csv, "c") == 2);
    CHECK(sn_csv_column(&csv, "z") == -1);
    sn_csv_release(&csv);
    CHECK(sn_csv_parse("t.csv", "\"open", 5, 100, &csv, &err) == SN_EINPUT);
}

static void test_write_file_atomic_leaves_nothing_on_failure(void)
{
    char dir[] = "/tmp/sn-test-XXXXXX";
    char path[256], bad[300];
    char *data;
    size_t len;
    struct sn_error err;

    REQUIRE(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/out.txt", dir);
    REQUIRE(sn_write_file_atomic(path, "hello", 5, &err) == SN_OK);
    REQUIRE(sn_read_file(path, 100, &data, &len, &err) == SN_OK);
    CHECK(len == 5 && memcmp(data, "hello", 5) == 0);
    free(data);
    CHECK(sn_read_file(path, 3, &data, &len, &err) == SN_EINPUT);
    snprintf(bad, sizeof(bad), "%s/missing/out.txt", dir);
    CHECK(sn_write_file_atomic(bad, "x", 1, &err) == SN_EIO);
    unlink(path);
    CHECK(rmdir(dir) == 0); /* empty: no temporary left behind */
}

/* The file of path as a string ("" when unreadable), in buf. */
static const char *slurp(const char *path, char *buf, size_t size)
{
    char *data = NULL;
    size_t len = 0;
    struct sn_error err;

    buf[0] = '\0';
    if (sn_read_file(path, size - 1, &data, &len, &err) == SN_OK) {
        memcpy(buf, data, len);
        buf[len] = '\0';
    }
    free(data);
    return buf;
}

static int count_entries(const char *dir)
{
    char cmd[300];
    FILE *p;
    int n = -1;

    snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
    p = popen(cmd, "r");
    if (p) {
        if (fscanf(p, "%d", &n) != 1)
            n = -1;
        pclose(p);
    }
    return n;
}

static void rm_rf(const char *dir)
{
    char cmd[300];

    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        printf("  cannot remove %s\n", dir);
}

static void test_outputs_keep_devices_fifos_and_links(void)
{
    char dir[] = "/tmp/sn-test-XXXXXX";
    char dev[300], fifo[300], link[300], real[300], buf[64];
    struct sn_output o[3];
    struct stat st;
    struct sn_error err;
    int fd;

    REQUIRE(mkdtemp(dir));
    snprintf(dev, sizeof(dev), "%s/mynull", dir);
    snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
    snprintf(link, sizeof(link), "%s/link", dir);
    snprintf(real, sizeof(real), "%s/real", dir);
    /* a node of the null device of our own, never the host's */
    if (mknod(dev, S_IFCHR | 0644, makedev(1, 3)) != 0) {
        printf("  skipped: mknod needs root\n");
        rm_rf(dir);
        return;
    }
    REQUIRE(mkfifo(fifo, 0644) == 0);
    REQUIRE(symlink("real", link) == 0);
    /* a reader on the FIFO that does not block us: open it first */
    fd = open(fifo, O_RDONLY | O_NONBLOCK);
    REQUIRE(fd >= 0);
    o[0] = (struct sn_output){dev, "to the device", 13};
    o[1] = (struct sn_output){fifo, "to the fifo", 11};
    o[2] = (struct sn_output){link, "to the link", 11};
    CHECK(sn_write_outputs(o, 3, &err) == SN_OK);
    CHECK(stat(dev, &st) == 0 && S_ISCHR(st.st_mode));
    CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    CHECK(read(fd, buf, sizeof(buf)) == 11);
    close(fd);
    /* the link stays a link; what it names is written */
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
    CHECK_STR(slurp(real, buf, sizeof(buf)), "to the link");
    /* a directory or a block device is never written over */
    o[0] = (struct sn_output){dir, "x", 1};
    CHECK(sn_write_outputs(o, 1, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "is a directory");
    CHECK(count_entries(dir) == 4); /* no temporary left */
    rm_rf(dir);
}

static void test_outputs_are_replaced_as_a_set(void)
{
    char dir[] = "/tmp/sn-test-XXXXXX";
    char a[300], b[300], bad[300], buf[64];
    struct sn_output o[3];
    struct sn_error err;

    REQUIRE(mkdtemp(dir));
    snprintf(a, sizeof(a), "%s/ledger.csv", dir);
    snprintf(b, sizeof(b), "%s/topo.dot", dir);
    snprintf(bad, sizeof(bad), "%s/missing/x.dot", dir);
    o[0] = (struct sn_output){a, "old a", 5};
    o[1] = (struct sn_output){b, "old b", 5};
    REQUIRE(sn_write_outputs(o, 2, &err) == SN_OK);
    /* the last output cannot be written: the first two stay as they were
     * and no temporary is left */
    o[0] = (struct sn_output){a, "new a", 5};
    o[1] = (struct sn_output){b, "new b", 5};
    o[2] = (struct sn_output){bad, "new c", 5};
    CHECK(sn_write_outputs(o, 3, &err) == SN_EIO);
    CHECK_STR(slurp(a, buf, sizeof(buf)), "old a");
    CHECK_STR(slurp(b, buf, sizeof(buf)), "old b");
    CHECK(count_entries(dir) == 2);
    /* one file named twice is refused */
    o[1] = (struct sn_output){a, "again", 5};
    CHECK(sn_write_outputs(o, 2, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "name the same file");
    CHECK_STR(slurp(a, buf, sizeof(buf)), "old a");
    rm_rf(dir);
}

static void test_outputs_long_names_and_stale_temporaries(void)
{
    char dir[] = "/tmp/sn-test-XXXXXX";
    char name[600], stale[300], mine[300], old[300], out[300], buf[64];
    struct sn_error err;
    FILE *f;
    size_t n;

    REQUIRE(mkdtemp(dir));
    /* a 250-character name is legal (NAME_MAX 255): the temporary's name
     * must not make it fail */
    n = (size_t)snprintf(name, sizeof(name), "%s/", dir);
    memset(name + n, 'a', 250);
    name[n + 250] = '\0';
    CHECK(sn_write_file_atomic(name, "long", 4, &err) == SN_OK);
    CHECK_STR(slurp(name, buf, sizeof(buf)), "long");
    /* a temporary of a writer that no longer runs (pid 1 is init, always
     * running; a pid above the kernel's maximum never runs) */
    snprintf(stale, sizeof(stale), "%s/.sn-99999999-abc123.tmp", dir);
    snprintf(mine, sizeof(mine), "%s/.sn-1-abc123.tmp", dir);
    snprintf(old, sizeof(old), "%s/out.txt.tmp99999999.17", dir);
    snprintf(out, sizeof(out), "%s/out.txt", dir);
    REQUIRE((f = fopen(stale, "w")) != NULL);
    fclose(f);
    REQUIRE((f = fopen(mine, "w")) != NULL);
    fclose(f);
    REQUIRE((f = fopen(old, "w")) != NULL);
    fclose(f);
    CHECK(sn_write_file_atomic(name, "again", 5, &err) == SN_OK);
    CHECK(access(stale, F_OK) != 0);
    CHECK(access(mine, F_OK) == 0);
    /* the form earlier versions used, named after its target: removed
     * when that target is written */
    CHECK(access(old, F_OK) == 0);
    CHECK(sn_write_file_atomic(out, "x", 1, &err) == SN_OK);
    CHECK(access(old, F_OK) != 0);
    /* a name over the limit is bad input, said whole */
    memset(name + n, 'b', 500);
    name[n + 500] = '\0';
    CHECK(sn_write_file_atomic(name, "x", 1, &err) == SN_EINPUT);
    CHECK_CONTAINS(err.msg, "too long");
    rm_rf(dir);
}

static void test_error_keeps_the_reason_of_a_long_message(void)
{
    struct sn_error err;
    char path[5001];

    memset(path, 'p', 5000);
    path[5000] = '\0';
    sn_error_set(&err, SN_EINPUT, "%s: cannot open: %s", path,
                 "File name too long");
    CHECK(strlen(err.msg) < sizeof(err.msg));
    CHECK_CONTAINS(err.msg, "ppp ... ppp");
    CHECK_CONTAINS(err.msg, ": cannot open: File name too long");
    /* a message may quote the one it replaces */
    sn_error_set(&err, SN_EIO, "short");
    sn_error_set(&err, SN_EIO, "again: %s", err.msg);
    CHECK_STR(err.msg, "again: short");
    sn_error_prefix(&err, path);
    CHECK_CONTAINS(err.msg, ": again: short");
}

/* The escaper of each output format: one hostile string (quotes, a
 * newline, <, &, %, a backslash, control bytes, broken UTF-8, U+2028)
 * stays one value of each format. */
static char *esc(enum sn_esc how, const char *s)
{
    static char out[8][256];
    static int k;
    struct sn_buf b = SN_BUF_INIT;

    sn_buf_put_esc(&b, how, s);
    k = (k + 1) % 8;
    snprintf(out[k], sizeof(out[k]), "%s", b.data ? b.data : "");
    sn_buf_release(&b);
    return out[k];
}

static void test_escapers_keep_a_hostile_string_one_value(void)
{
    const char *h = "a\"b'<&>%s\\\n\x01\x1b\xff\xe2\x80\xa8z";
    char *dup;

    CHECK_STR(esc(SN_ESC_TERM, h),
              "a\"b'<&>%s\\\\x0a\\x01\\x1b\\xff\xe2\x80\xa8z");
    CHECK_STR(esc(SN_ESC_XML, h), "a&quot;b&#39;&lt;&amp;&gt;%s\\\\x0a\\x01"
                                  "\\x1b\\xff\\u2028z");
    CHECK_STR(esc(SN_ESC_XML_LINES, "a\n\tb<\x02"), "a\n\tb&lt;\\x02");
    CHECK_STR(esc(SN_ESC_XML, "\xef\xbf\xbe"), "\\ufffe");
    CHECK_STR(esc(SN_ESC_DOT, h), "a\\\"b'<&>%s\\\\\\\\x0a\\\\x01\\\\x1b"
                                  "\\\\xff\\\\u2028z");
    CHECK_STR(esc(SN_ESC_PROMQL, "x\"}\\"), "x\\\"}\\\\");
    CHECK_STR(esc(SN_ESC_YAML_COMMENT, "n\n- alert: X\r\xe2\x80\xa9"),
              "n\\x0a- alert: X\\x0d\\u2029");
    CHECK_STR(esc(SN_ESC_YAML, "a\"\\\nb"), "\"a\\\"\\\\\\\\x0ab\"");
    CHECK_STR(esc(SN_ESC_CSV, "plain"), "plain");
    CHECK_STR(esc(SN_ESC_CSV, "a,\"b\"\n"), "\"a,\"\"b\"\"\\x0a\"");
    CHECK_STR(esc(SN_ESC_JSON, "a\"\n\xff"), "\"a\\\"\\n\\\\xff\"");
    CHECK_STR(esc(SN_ESC_XML, NULL), "");
    dup = sn_xstrdup_esc(SN_ESC_DOT, "\"");
    CHECK_STR(dup, "\\\"");
    free(dup);
}

static void test_clean_escapes_invalid_bytes_and_controls(void)
{
    char out[64];
    char *dup;

    /* valid UTF-8 stays, whatever the script */
    CHECK_STR(sn_str_clean(out, sizeof(out),
                           "h100 \xe8\xb6\x85\xe8\x8a\x82\xe7\x82\xb9", 0),
              "h100 \xe8\xb6\x85\xe8\x8a\x82\xe7\x82\xb9");
    /* an invalid byte, an overlong form, a surrogate, a truncated
     * sequence: one escape per byte */
    CHECK_STR(sn_str_clean(out, sizeof(out),
                           "a\xff"
                           "b",
                           0),
              "a\\xffb");
    CHECK_STR(sn_str_clean(out, sizeof(out), "\xc0\xaf", 0), "\\xc0\\xaf");
    CHECK_STR(sn_str_clean(out, sizeof(out), "\xed\xa0\x80", 0),
              "\\xed\\xa0\\x80");
    CHECK_STR(sn_str_clean(out, sizeof(out), "x\xe8\xb6", 0), "x\\xe8\\xb6");
    /* what a terminal acts on: ESC (a title-setting OSC), BEL, DEL, C1 */
    CHECK_STR(sn_str_clean(out, sizeof(out), "\x1b]0;t\x07", 0),
              "\\x1b]0;t\\x07");
    CHECK_STR(sn_str_clean(out, sizeof(out), "\x7f\xc2\x9b", 0),
              "\\x7f\\xc2\\x9b");
    /* lines kept only when asked */
    CHECK_STR(sn_str_clean(out, sizeof(out), "a\nb\tc", 0), "a\\x0ab\\x09c");
    CHECK_STR(sn_str_clean(out, sizeof(out), "a\nb\tc", SN_CLEAN_LINES),
              "a\nb\tc");
    /* cleaning clean text changes nothing */
    sn_str_clean(out, sizeof(out), "\x1b[31mred\xff", 0);
    CHECK(sn_str_is_clean(out, 0));
    dup = sn_xstrdup_clean(out, 0);
    CHECK_STR(dup, out);
    free(dup);
    /* cut before an escape or a character that does not fit */
    CHECK_STR(sn_str_clean(out, 6, "ab\xff", 0), "ab");
    CHECK_STR(sn_str_clean(out, 4, "ab\xe8\xb6\x85", 0), "ab");
    memcpy(out, "\xff\xfe", 3);
    sn_str_clean_in(out, sizeof(out), 0);
    CHECK_STR(out, "\\xff\\xfe");
}

static void test_json_output_is_utf8_whatever_the_input(void)
{
    struct sn_buf b;

    sn_buf_init(&b);
    sn_json_escape(&b, "host\xff\x1b\x7f\xc2\x85\xe8\xb6\x85");
    /* the invalid byte as the text \xff, controls as \u escapes, a valid
     * character as itself */
    CHECK_STR(b.data, "\"host\\\\xff\\u001b\\u007f\\u0085\xe8\xb6\x85\"");
    CHECK(sn_str_is_clean(b.data, 0));
    sn_buf_release(&b);
}

static void test_read_attr_never_blocks_on_a_fifo(void)
{
    char dir[] = "/tmp/sn-test-XXXXXX";
    char fifo[300], file[300];
    char *data;
    size_t len = 9;
    FILE *f;

    REQUIRE(mkdtemp(dir));
    snprintf(fifo, sizeof(fifo), "%s/scaling_governor", dir);
    snprintf(file, sizeof(file), "%s/online", dir);
    REQUIRE(mkfifo(fifo, 0644) == 0);
    REQUIRE((f = fopen(file, "w")) != NULL);
    fputs("0-7\n", f);
    fclose(f);
    /* no writer on the FIFO: a blocking open would never return */
    CHECK(sn_read_attr(fifo, 4096, &len) == NULL);
    CHECK(len == 0);
    data = sn_read_attr(file, 4096, &len);
    CHECK(data && len == 4 && !strcmp(data, "0-7\n"));
    free(data);
    CHECK(sn_read_attr(file, 2, &len) == NULL); /* over the cap */
    CHECK(sn_read_attr(dir, 4096, &len) == NULL);
    rm_rf(dir);
}

static void test_hash_is_stable(void)
{
    CHECK(sn_hash64("", 0, 0) == 0xcbf29ce484222325ULL);
    CHECK(sn_hash64("a", 1, 0) == 0xaf63dc4c8601ec8cULL);
}

/* Zeroed is released (util.h): a zero buffer, table, YAML document and
 * CSV can be used or released with no init call, release leaves them
 * reusable, and SN_BUF_INIT is sn_buf_init()'s state. */
static void test_zeroed_structs_are_releasable(void)
{
    struct sn_buf a = SN_BUF_INIT, z = {0}, out = SN_BUF_INIT;
    struct sn_table tb = {0};
    struct sn_yaml_doc doc = {0};
    struct sn_csv csv = {0};

    CHECK_STR(a.data, "");
    CHECK(a.len == 0 && a.cap == 0);
    sn_buf_release(&a);
    CHECK_STR(a.data, "");
    sn_buf_release(&z);
    CHECK_STR(z.data, "");
    z = (struct sn_buf){0};
    sn_buf_printf(&z, "%d GB/s", 450);
    CHECK_STR(z.data, "450 GB/s");
    sn_buf_release(&z);
    sn_buf_release(&z);
    CHECK(z.cap == 0 && z.len == 0);

    sn_table_col(&tb, "link", false);
    sn_table_row(&tb);
    sn_table_cell(&tb, "%s", "L1-07");
    sn_table_render(&tb, &out);
    CHECK_CONTAINS(out.data, "L1-07");
    CHECK(out.data[0] == 'l'); /* no prefix: the header starts the line */
    sn_table_release(&tb);
    sn_table_release(&tb);
    sn_buf_release(&out);

    sn_yaml_doc_release(&doc);
    CHECK(doc.root == NULL);
    sn_csv_release(&csv);
    CHECK(csv.nrows == 0 && csv.fields == NULL);
}

/* An unknown name is told the nearest name, or every name in table
 * order joined as a person writes a list. */
static void test_unknown_name_suggests_or_lists_the_table(void)
{
    static const char *const one[] = {"sum", NULL};
    static const char *const two[] = {"sum", "max", NULL};
    static const char *const three[] = {"ring", "tree", "nvls", NULL};
    struct sn_error err;

    CHECK(sn_unknown_name(&err, "reduction", "avg", one, 1, sizeof(one[0])) ==
          SN_EINPUT);
    CHECK_STR(err.msg, "unknown reduction 'avg' (expected sum)");
    CHECK(sn_unknown_name(&err, "reduction", "prod", two, 2, sizeof(two[0])) ==
          SN_EINPUT);
    CHECK_STR(err.msg, "unknown reduction 'prod' (expected sum or max)");
    CHECK(sn_unknown_name(&err, "algorithm", "fastest", three, 3,
                          sizeof(three[0])) == SN_EINPUT);
    CHECK_STR(err.msg,
              "unknown algorithm 'fastest' (expected ring, tree or nvls)");
    CHECK(sn_unknown_name(&err, "algorithm", "rign", three, 3,
                          sizeof(three[0])) == SN_EINPUT);
    CHECK_STR(err.msg, "unknown algorithm 'rign' (did you mean 'ring'?)");
}

static const struct sn_test cases[] = {
    T(test_units_parse_bandwidth_bits_and_bytes),
    T(test_units_parse_power_time_length),
    T(test_units_parse_bytes_decimal_and_binary),
    T(test_units_count_ratio_and_separators),
    T(test_units_reject_bad_text_with_reason),
    T(test_units_parse_size_like_nccl_tests),
    T(test_units_format_three_figures),
    T(test_units_format_by_stored_unit_name),
    T(test_tok_next_splits_like_strtok_r),
    T(test_error_at_formats_location),
    T(test_suggest_finds_near_names),
    T(test_suggest_ties_prefer_same_length),
    T(test_fmt_count_groups_thousands),
    T(test_buf_grows_and_detaches),
    T(test_json_writer_is_valid_and_ordered),
    T(test_json_pretty_indents),
    T(test_table_pads_columns),
    T(test_yaml_tree_with_positions),
    T(test_yaml_refuses_bad_documents),
    T(test_yaml_wide_mappings_and_lists_load),
    T(test_csv_handles_quotes_and_crlf),
    T(test_write_file_atomic_leaves_nothing_on_failure),
    T(test_outputs_keep_devices_fifos_and_links),
    T(test_outputs_are_replaced_as_a_set),
    T(test_outputs_long_names_and_stale_temporaries),
    T(test_error_keeps_the_reason_of_a_long_message),
    T(test_clean_escapes_invalid_bytes_and_controls),
    T(test_escapers_keep_a_hostile_string_one_value),
    T(test_json_output_is_utf8_whatever_the_input),
    T(test_read_attr_never_blocks_on_a_fifo),
    T(test_hash_is_stable),
    T(test_zeroed_structs_are_releasable),
    T(test_unknown_name_suggests_or_lists_the_table),
};

SN_TEST_MAIN(cases)
