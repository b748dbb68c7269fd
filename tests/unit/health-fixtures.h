/* health-fixtures.h: what the doctor tests share: a run of the probes on
 * a fixture tree (tests/fixtures/sysfs/, or one a test builds) and the
 * look-ups into the report it gives. */
#ifndef SN_TEST_HEALTH_FIXTURES_H
#define SN_TEST_HEALTH_FIXTURES_H

#include <stddef.h>

#include "sn/health.h"
#include "sn/store.h"

/* cfg initialised for doctor's probes on the tree at root, with NVML off
 * (library ""): a test that loads one sets cfg->nvml_library after. */
void fx_health_config(struct sn_health_config *cfg, const char *root,
                      unsigned probes);

/* Runs doctor with cfg into rep, initialised here and the caller's to
 * release. Returns sn_health_run's code, having printed its error. */
int fx_health_run(const struct sn_health_config *cfg,
                  struct sn_health_report *rep);

/* The first check named name whose subject starts with prefix; NULL when
 * there is none. Points into rep. */
const struct sn_health_check *fx_find_check(const struct sn_health_report *rep,
                                            const char *name,
                                            const char *prefix);

/* That check when it has status st; else NULL, having printed what the
 * report holds instead (for the case's REQUIRE to fail on). */
const struct sn_health_check *
fx_expect_check(const struct sn_health_report *rep, const char *name,
                const char *prefix, enum sn_health_status st);

/* How many checks named name have status st. */
size_t fx_count_checks(const struct sn_health_report *rep, const char *name,
                       enum sn_health_status st);

/* A doctor check as the store keeps it; evidence and remedy are borrowed,
 * the other strings copied (and cut to their fields). */
struct sn_store_health fx_store_health(const char *host, const char *name,
                                       const char *status, const char *subject,
                                       const char *evidence,
                                       const char *remedy);

#endif
