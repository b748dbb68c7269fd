/* infer.c (report): what the documents that hold a serving layout share
 * (sim infer, sweep --infer): the layout as the JSON object "layout" and
 * its prediction as "result". */
#include "sn/model.h"
#include "sn/report.h"

void sn_report_infer_layout_json(struct sn_json *j,
                                 const struct sn_infer_layout *l)
{
    sn_json_key(j, "layout");
    sn_json_obj_begin(j);
    sn_json_kint(j, "tp", l->tp);
    sn_json_kint(j, "ep", l->ep);
    sn_json_kint(j, "pp", l->pp);
    sn_json_kbool(j, "dp_attention", l->dp_attention);
    sn_json_kbool(j, "tbo", l->tbo);
    sn_json_kint(j, "batch", l->batch);
    sn_json_obj_end(j);
}

void sn_report_infer_result_json(struct sn_json *j,
                                 const struct sn_infer_result *r)
{
    sn_json_key(j, "result");
    sn_json_obj_begin(j);
    sn_json_kint(j, "replica_gpus", r->gpus);
    sn_json_knum(j, "weights_bytes", r->weights_bytes);
    sn_json_knum(j, "kv_bytes_per_token", r->kv_token_bytes);
    sn_json_knum(j, "kv_bytes_per_sequence_gpu", r->kv_seq_gpu);
    sn_json_knum(j, "kv_budget_bytes", r->kv_budget);
    sn_json_knum(j, "capacity_bytes", r->capacity);
    sn_json_kint(j, "max_batch", r->max_batch);
    sn_json_kint(j, "batch", r->batch);
    sn_json_kbool(j, "fits", r->fits);
    sn_json_knum(j, "experts_read", r->experts_hit);
    sn_json_knum(j, "ttft_s", r->ttft_s);
    sn_json_knum(j, "tpot_s", r->tpot_s);
    sn_json_knum(j, "step_s", r->step_s);
    sn_json_knum(j, "output_tokens_per_s", r->output_tps);
    sn_json_knum(j, "output_tokens_per_s_per_gpu", r->output_tps_gpu);
    sn_json_knum(j, "output_tokens_per_s_per_user", r->output_tps_user);
    sn_json_knum(j, "decode_tokens_per_s_per_gpu", r->decode_tps_gpu);
    sn_json_knum(j, "prefill_tokens_per_s_per_gpu", r->prefill_tps_gpu);
    sn_json_key(j, "decode_step");
    sn_json_obj_begin(j);
    for (int p = 0; p < SN_INFER_PART_COUNT; p++)
        sn_json_knum(j, sn_infer_part_name(p), r->part[p]);
    sn_json_obj_end(j);
    sn_json_obj_end(j);
}
