/* json-read.c: JSON into a jansson tree: a document, hostile input, under
 * our own caps, with errors located at the line and column. The BMC
 * collector's Redfish responses and `bench power` documents are read
 * here; a run's document (`runs import`) goes through the YAML loader for
 * the positions of its values. */
#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "sn/util.h"

/* Whether the text nests deeper than max, and where: found before
 * jansson builds anything (its own cap, 2048 levels, is for a parser's
 * stack, not for what a BMC may send). */
static bool too_deep(const char *t, size_t len, int max, int *line, int *col)
{
    int depth = 0;
    bool str = false, esc = false;

    *line = 1;
    *col = 0;
    for (size_t i = 0; i < len; i++) {
        char c = t[i];
        if (c == '\n') {
            (*line)++;
            *col = 0;
        } else {
            (*col)++;
        }
        if (str) {
            if (esc)
                esc = false;
            else if (c == '\\')
                esc = true;
            else if (c == '"')
                str = false;
        } else if (c == '"') {
            str = true;
        } else if (c == '[' || c == '{') {
            if (++depth > max)
                return true;
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return false;
}

int sn_json_read(const char *what, const char *text, size_t len, int max_depth,
                 struct json_t **out, struct sn_error *err)
{
    json_error_t je;
    json_t *doc;
    int line, col;

    *out = NULL;
    if (max_depth > 0 && too_deep(text, len, max_depth, &line, &col))
        return sn_error_at(err, SN_EINPUT, what, line, col,
                           "nested deeper than %d levels", max_depth);
    /* duplicate keys refused: which of two readings would be the one? */
    doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!doc) {
        char msg[4 * JSON_ERROR_TEXT_LENGTH + 1];
        sn_str_clean(msg, sizeof(msg), je.text, 0);
        return sn_error_at(err, SN_EINPUT, what, je.line > 0 ? je.line : 0,
                           je.column > 0 ? je.column : 0, "%s", msg);
    }
    *out = doc;
    return SN_OK;
}
