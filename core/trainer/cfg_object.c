/*
** cfg_object.c — a live config object as a run's inputs: the front end
** that holds the trainer's PretrainLMCfg (the Python package, in the
** interpreter that runs the trainer) hands each field's value, and each
** goes through the one field table (trainer_fields.c) as a file reader's
** fields do. What the value is, is the front end's to say; what it means
** for memory is the table's. Design note: docs/python.md.
*/
#include <stdio.h>
#include <string.h>

#include "trainer/trainer.h"

memest_trainer_run *memest_cfg_run_new(const char *label, int line) {
  memest_trainer_run *run = memi_run_new(MEMEST_SOURCE_CFG);
  if (run == NULL) return NULL;
  memi_tloc_set(&run->handed, label != NULL && label[0] ? label : "cfg", line > 0 ? line : 0);
  memi_run_file(run, run->handed.file);
  return run;
}

/* A field of the object itself that is not a config object: for a
** section memest reads, each of its inputs is refused (the trainer could
** not start from it); any other is a field memest does not know. */
static void top_level_value(memest_trainer_run *run, const char *name, const tvalue *v) {
  char shown[160], where[300];
  int i;
  if (!memi_trainer_section_known(name)) {
    memi_run_warn(run, "%s: cfg.%.60s is not a field memest knows (the trainer's PretrainLMCfg at "
                       "889a408 has no such field); it was not read",
                  memi_tloc_show(&run->handed, where, sizeof where), name);
    return;
  }
  for (i = 0; i < memi_trainer_field_count(); i++) {
    const trainer_field *f = memi_trainer_field_at(i);
    char field[96];
    if (strcmp(f->section, name) != 0 || f->input < 0) continue;
    snprintf(field, sizeof field, "%.40s.%.50s", f->section, f->name);
    memi_run_refuse(run, (memest_param_id)f->input, &run->handed, field,
                    "%s: cfg.%s is %s, not the trainer's config object, so %s has no value",
                    memi_tloc_show(&run->handed, where, sizeof where), name,
                    memi_tv_show(v, shown, sizeof shown), field);
  }
}

/* The value as the table's conversions take it; 0 with why (for a
** refusal) when memest cannot hold it as it is. */
static int to_tvalue(const memest_value *in, tvalue *v, char *why, size_t size) {
  static const tv_kind kinds[] = {TV_NONE, TV_NONE, TV_BOOL, TV_INT, TV_FLOAT, TV_STR, TV_PATH,
                                  TV_FUNC, TV_PARTIAL, TV_TIMEDELTA, TV_OBJECT, TV_OTHER};
  const char *text = in->text != NULL ? in->text : "";
  size_t n = in->text != NULL ? in->text_len : 0;
  memset(v, 0, sizeof *v);
  if ((int)in->kind < (int)MEMEST_VALUE_NONE || in->kind > MEMEST_VALUE_OTHER) {
    snprintf(why, size, "a value of no kind memest knows (%d)", (int)in->kind);
    return 0;
  }
  if (memchr(text, '\0', n) != NULL) {
    snprintf(why, size, "a text that holds a NUL character, which no file name or hub id holds");
    return 0;
  }
  if (n >= sizeof v->text && (in->kind == MEMEST_VALUE_STR || in->kind == MEMEST_VALUE_PATH)) {
    snprintf(why, size, "a text of %zu bytes, longer than the %zu memest reads", n, sizeof v->text - 1);
    return 0;
  }
  memi_tv_set_text(v, kinds[in->kind], text, n);
  v->i = in->i;
  v->f = in->f;
  if (in->args != NULL) tr_copy(v->args, sizeof v->args, in->args);
  return 1;
}

void memest_cfg_run_field(memest_trainer_run *run, const char *section, const char *name,
                          const memest_value *value) {
  tvalue v;
  char why[200], field[120], where[300];
  if (run == NULL || section == NULL || name == NULL || value == NULL) return;
  if (value->kind == MEMEST_VALUE_UNSET) {   /* the field is there, with no value */
    const trainer_field *f = memi_trainer_field(section, name);
    if (section[0] == '\0' && memi_trainer_section_known(name)) {
      memset(&v, 0, sizeof v);
      memi_tv_set_text(&v, TV_OTHER, "never set", 9);
      top_level_value(run, name, &v);
    } else if (f != NULL && f->input >= 0 && f->dflt != NULL) {
      /* a field with a default unset: deleted from the object */
      char message[600];
      snprintf(message, sizeof message,
               "%s: %.40s.%.60s is not set on the object (deleted: its class gives it a "
               "default), so launch(cfg) raises AttributeError reading it",
               memi_tloc_show(&run->handed, where, sizeof where), section, name);
      memi_trainer_refuse(run, section, name, &run->handed, message);
    } else {
      memi_trainer_field_seen(run, section, name);   /* required and never set: a note */
    }
    return;
  }
  if (!to_tvalue(value, &v, why, sizeof why)) {
    char message[600];
    snprintf(field, sizeof field, "%.40s.%.60s", section, name);
    snprintf(message, sizeof message, "%s: %s is %s", memi_tloc_show(&run->handed, where, sizeof where),
             field, why);
    memi_trainer_refuse(run, section, name, &run->handed, message);
    return;
  }
  if (section[0] == '\0') top_level_value(run, name, &v);
  else memi_trainer_take_python(run, section, name, &v, &run->handed);
}

void memest_cfg_run_finish(memest_trainer_run *run, int complete) {
  if (run == NULL) return;
  memi_trainer_date_fields(run, complete);
  memi_trainer_defaults(run);
  memi_trainer_note_required(run, "the config object never sets");
}
