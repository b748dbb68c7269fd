/* store-fixtures.h: what the store tests share: a results database in a
 * fresh directory of its own, and its removal. */
#ifndef SN_TEST_STORE_FIXTURES_H
#define SN_TEST_STORE_FIXTURES_H

#include <stdbool.h>

#include "sn/store.h"

/* A fresh directory and *path, a results database's path in it; with st,
 * the store opened there. All of it freed by fx_store_release; false,
 * said why, when it cannot be made. */
bool fx_store_fresh(char **dir, char **path, struct sn_store **st);

/* Closes st (may be NULL) and removes what fx_store_fresh made. */
void fx_store_release(struct sn_store *st, char *path, char *dir);

#endif
