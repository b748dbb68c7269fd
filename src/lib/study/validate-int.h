/* validate-int.h (model, internal): what the training and the serving
 * validators share: the systems built once per run, and the helpers that
 * read the free-text cells. */
#ifndef SN_VALIDATE_INT_H
#define SN_VALIDATE_INT_H

#if !defined(SN_MODULE_study) && !defined(SN_TESTS)
#error "private to src/lib/study (tests/layers/table)"
#endif

#include "../net/hmap.h"
#include "sn/model.h"
#include "sn/validate.h"

/* An environment per distinct system spec, kept for the whole run. */
struct env_slot {
    char *text;
    struct sn_spec spec;
    struct sn_train_env env;
    int rc;
    char msg[256];
};

struct owned {
    struct sn_csv csv;
    struct env_slot **envs; /* each slot stays put: topologies point
                               at their spec */
    size_t nenvs, cap;
    struct hmap by_text; /* hash of a slot's text -> its index */
};

/* The environment of a system spec's text (taken over), built once. */
struct env_slot *sn__validate_env(struct owned *own, char *text);
/* s in lower case into out (size bytes, truncated). */
void sn__validate_lower(const char *s, char *out, size_t size);
/* Appends ", what" (or "what") to s when it fits. */
void sn__validate_append(char *s, size_t size, const char *what);
/* The number after a tag in free text: "EP64", "EP=64", "MTP 3". */
int sn__validate_tagged(const char *text, const char *tag);
/* A training row without a layout: the best of training search s for
 * model m on sys with options o into row->layout and row->result, said
 * first in row->assumed ("layout from search: TP8 PP1 EP1"); false with
 * row->reason when the search fails or nothing fits. */
bool sn__validate_search(const struct sn_model_info *m,
                         const struct sn_train_system *sys,
                         const struct sn_train_opts *o,
                         const struct sn_train_search *s,
                         struct sn_validate_row *row);
/* The serving file (validation/inference-public.csv's columns): every
 * row predicted by the inference model into rep->rows. SN_EINPUT
 * (located) when a required column is missing. */
int sn__validate_infer(struct owned *own, const char *file,
                       struct sn_validate_report *rep, struct sn_error *err);

#endif
