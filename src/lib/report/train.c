/* train.c (report): what the documents that hold a training layout
 * share: the layout as the JSON object "layout" (sim train, sweep,
 * validate). */
#include "sn/model.h"
#include "sn/report.h"

void sn_report_train_layout_json(struct sn_json *j,
                                 const struct sn_train_layout *l, unsigned what)
{
    sn_json_key(j, "layout");
    sn_json_obj_begin(j);
    sn_json_kint(j, "tp", l->tp);
    sn_json_kint(j, "pp", l->pp);
    sn_json_kint(j, "dp", l->dp);
    sn_json_kint(j, "cp", l->cp);
    sn_json_kint(j, "ep", l->ep);
    if (l->ep > 1)
        sn_json_kint(j, "etp", l->etp > 0 ? l->etp : l->tp);
    sn_json_kint(j, "vpp", l->vpp);
    sn_json_kint(j, "mbs", l->mbs);
    sn_json_kint(j, "gbs", l->gbs);
    if (what & SN_REPORT_LAYOUT_SEQ)
        sn_json_kint(j, "seq", l->seq);
    sn_json_kstr(j, "recompute", sn_recompute_name(l->recompute));
    sn_json_kint(j, "zero", l->zero);
    if (what & SN_REPORT_LAYOUT_PRECISION) {
        sn_json_kbool(j, "sp", l->sp);
        sn_json_kstr(j, "dtype", sn_dtype_name(l->dtype));
    }
    sn_json_obj_end(j);
}
