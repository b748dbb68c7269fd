/* cli-nccl.h: what `doctor --nccl-topo` and `check --nccl-log` share:
 * read NCCL's file, the design from an optional spec, print the checks
 * (sn/nccl.h) as doctor's checklist or JSON. */
#ifndef SN_CLI_NCCL_H
#define SN_CLI_NCCL_H

#include "cmd.h"

/* Compare NCCL's topology dump with the spec's node (none: what NCCL
 * sees, unjudged) and print it in format (table or json; json_out, when
 * not NULL, also gets the JSON, written atomically). Returns the exit
 * status: 0, 1 when a check fails, 2 for a bad dump or spec. */
int cli_nccl_topo(const char *dump, const char *spec_path,
                  enum sn_format format, const char *json_out);
/* The same for an NCCL_DEBUG=INFO log. */
int cli_nccl_log(const char *log, const char *spec_path, enum sn_format format,
                 const char *json_out);

/* A fresh directory for NCCL's dump and log of one bench run, under
 * $TMPDIR (else /tmp), in buf; NULL when it cannot be made. Kept after
 * the run: the notes name it. */
const char *cli_nccl_dir(char *buf, size_t size);

#endif
