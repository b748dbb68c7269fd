/* redfish-json.c: the BMC collector's JSON parse (redfish-int.h): a
 * Redfish response, hostile input, into a jansson document under our own
 * caps, with errors located at the line and column. */
#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "sn/util.h"

#include "redfish-int.h"

/* Whether the text nests deeper than SN_RF_DEPTH_MAX, and where: found
 * before jansson builds anything (its own cap, 2048 levels, is for a
 * parser's stack, not for what a BMC may send). */
static bool too_deep(const char *t, size_t len, int *line, int *col)
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
            if (++depth > SN_RF_DEPTH_MAX)
                return true;
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return false;
}

int sn__watch_redfish_parse(const char *what, const char *text, size_t len,
                            json_t **out, struct sn_error *err)
{
    json_error_t je;
    json_t *doc;
    int line, col;

    *out = NULL;
    if (len > SN_RF_BODY_MAX)
        return sn_error_set(err, SN_EINPUT,
                            "%s: %zu bytes, more than the %zu a response may "
                            "have",
                            what, len, SN_RF_BODY_MAX);
    if (len == 0)
        return sn_error_set(err, SN_EINPUT, "%s: empty response", what);
    if (too_deep(text, len, &line, &col))
        return sn_error_at(err, SN_EINPUT, what, line, col,
                           "nested deeper than %d levels", SN_RF_DEPTH_MAX);
    /* duplicate keys refused: which of two readings would be the one? */
    doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    if (!doc) {
        char msg[4 * JSON_ERROR_TEXT_LENGTH + 1];
        sn_str_clean(msg, sizeof(msg), je.text, 0);
        return sn_error_at(err, SN_EINPUT, what, je.line > 0 ? je.line : 0,
                           je.column > 0 ? je.column : 0, "%s", msg);
    }
    if (!json_is_object(doc)) {
        json_decref(doc);
        return sn_error_at(err, SN_EINPUT, what, 1, 1,
                           "expected a JSON object (a Redfish resource)");
    }
    *out = doc;
    return SN_OK;
}
