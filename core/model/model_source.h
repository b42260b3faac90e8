/*
** model_source.h — where the model's config came from, as the reports name
** it (model_source.c): the names of the origins, the kind the library fills
** in when the front end said none, and the JSON object and text line.
*/
#ifndef MEMEST_MODEL_SOURCE_H
#define MEMEST_MODEL_SOURCE_H

#include "base/internal.h"

/* Fills in an unset kind: PRESET when the library read a preset (the
** caller gave no config text), else FILE. */
MEMEST_HIDDEN void memi_model_source_settle(memest_params *p, int read_preset);
/* ,"model_source":{"kind", "preset", "path", "revision", "url"} (absent
** members null), for the estimate, plan and check objects. */
MEMEST_HIDDEN void memi_model_source_json(strbuf *sb, const memest_params *p);
/* Whether the text reports give a line for it: when --model named a hub
** id (the Model line already names a preset or a file named as such). */
MEMEST_HIDDEN int memi_model_source_shown(const memest_params *p);
/* That line's text, after its label, without a newline. */
MEMEST_HIDDEN void memi_model_source_text(strbuf *sb, const memest_params *p);

#endif /* MEMEST_MODEL_SOURCE_H */
