/* schema.h: the version of supernode and the schema id of every
 * document it writes or reads, each written once here. Header-only: no
 * module owns it, every module may include it (it includes nothing).
 */
#ifndef SN_SCHEMA_H
#define SN_SCHEMA_H

/* The version of the tool and the library (the HTML report's generator,
 * the bench result's tool, the agent's build_info). */
#define SN_VERSION "0.1.0"

/* Every JSON document's "schema": supernode.<kind>/<version>. These are
 * the only place a schema id is written (tests/banned checks it): a
 * renderer writes the constant, a parser compares with it. A document
 * whose shape changes incompatibly gets a new version here. */
#define SN_SCHEMA_REPORT "supernode.report/1"
#define SN_SCHEMA_SPEC "supernode.spec/1"                 /* spec show */
#define SN_SCHEMA_CATALOG "supernode.catalog/1"           /* catalog */
#define SN_SCHEMA_PLAN "supernode.plan/1"                 /* plan */
#define SN_SCHEMA_COLL "supernode.coll/1"                 /* sim coll */
#define SN_SCHEMA_PAIRS "supernode.pairs/1"               /* sim pairs */
#define SN_SCHEMA_TRAIN "supernode.train/2"               /* sim train */
#define SN_SCHEMA_TRAIN_SEARCH "supernode.train-search/2" /* --search */
#define SN_SCHEMA_INFER "supernode.infer/2"               /* sim infer */
#define SN_SCHEMA_SWEEP "supernode.sweep/2"               /* sweep */
#define SN_SCHEMA_SWEEP_INFER "supernode.sweep-infer/2"   /* --infer */
#define SN_SCHEMA_VALIDATE "supernode.validate/2"         /* validate */
/* bench; /2: algbw and busbw in GB/s as algbw_GBps and busbw_GBps (in
 * B/s as algbw and busbw in /1), the names and unit of sim coll's */
#define SN_SCHEMA_BENCH "supernode.bench/2"
#define SN_SCHEMA_CHECK "supernode.check/1"         /* check's findings */
#define SN_SCHEMA_RUN "supernode.run/1"             /* runs show, import */
#define SN_SCHEMA_RUNS "supernode.runs/1"           /* runs list */
#define SN_SCHEMA_BASELINE "supernode.baseline/1"   /* baseline show */
#define SN_SCHEMA_BASELINES "supernode.baselines/1" /* baseline list */
#define SN_SCHEMA_BASELINE_DIFF "supernode.baseline-diff/1"
#define SN_SCHEMA_DOCTOR "supernode.doctor/1" /* doctor */
#define SN_SCHEMA_EVENTS "supernode.events/1" /* events list */
#define SN_SCHEMA_EVENT "supernode.event/1"   /* events show */
#define SN_SCHEMA_POWER "supernode.power/1"   /* bench power */
/* Not JSON: the tag that opens a node's health record on the wire
 * between ranks (store/health.c), versioned the same way. */
#define SN_SCHEMA_HEALTH_PACK "supernode.health-pack/1"

#endif
