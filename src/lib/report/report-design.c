/* report-design.c (report): the HTML report's design section. Placeholder so
 * the page links while the section is being built; it writes nothing. */
#include "report-int.h"

int rep_design(struct sn_buf *b, const struct sn_report_html_in *in,
               struct sn_error *err)
{
    (void)b;
    (void)in;
    (void)err;
    return 0;
}
