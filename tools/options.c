/* The table-driven option parser of the ordo tool (options.h). */
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_positional(opt_positional p, const char *a)
{
    switch (p) {
    case OPT_POS_NOT_LONG: return !(a[0] == '-' && a[1] == '-');
    case OPT_POS_NOT_DASH: return !(a[0] == '-' && a[1]);
    default: return 0;
    }
}

/* The option a names, and its value when given as --name=VALUE. */
static const opt *find(const opt_spec *s, const char *a, const char **value)
{
    *value = NULL;
    for (size_t k = 0; k < s->nopts; k++) {
        const opt *o = &s->opts[k];
        size_t n = strlen(o->name);
        if (strncmp(a, o->name, n))
            continue;
        if (!a[n])
            return o;
        if (a[n] == '=' && o->kind != OPT_FLAG && (s->flags & OPT_EQUALS)) {
            *value = a + n + 1;
            return o;
        }
    }
    return NULL;
}

static int fail(opt_error *err, opt_error_kind kind, const char *arg)
{
    err->kind = kind;
    err->arg = arg;
    return -1;
}

int opt_parse(const opt_spec *s, int argc, char **argv, char **pos, opt_error *err)
{
    int npos = 0, done = 0;
    err->kind = OPT_ERR_NONE;
    err->arg = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (!done && !strcmp(a, "-h") && !find(s, a, &v)) /* no positional is "-h" */
            return fail(err, OPT_ERR_HELP, a);
        if (done || is_positional(s->positional, a)) {
            pos[npos++] = argv[i];
            continue;
        }
        if ((s->flags & OPT_DOUBLE_DASH) && !strcmp(a, "--")) {
            done = 1;
            continue;
        }
        const opt *o = find(s, a, &v);
        if (!o)
            return fail(err, !strcmp(a, "--help") || !strcmp(a, "-h") ? OPT_ERR_HELP : OPT_ERR_UNKNOWN,
                        a);
        if (o->kind == OPT_FLAG) {
            *(int *)o->dst = 1;
            continue;
        }
        if (!v) {
            if (i + 1 >= argc)
                return fail(err, (s->flags & OPT_MISSING_UNKNOWN) ? OPT_ERR_UNKNOWN
                                                                  : OPT_ERR_NEEDS_VALUE,
                            a);
            v = argv[++i];
        }
        if (o->kind == OPT_STRING)
            *(const char **)o->dst = v;
        else
            o->call(o->dst, o->name, v);
    }
    return npos;
}

char *opt_message(const opt_spec *s, const opt_error *err)
{
    int needs = err->kind == OPT_ERR_NEEDS_VALUE, bare = needs && (s->flags & OPT_NEEDS_BARE);
    const char *a1 = bare ? "" : s->cmd, *a2 = needs ? (bare ? "" : ": ") : s->unknown;
    const char *nl = s->usage ? "\n" : "", *usage = s->usage ? s->usage : "";
#define OPT_MESSAGE(buf, size)                                                                     \
    snprintf(buf, size, needs ? "%s%s%s needs a value%s%s" : "%s: %s '%s'%s%s", a1, a2, err->arg,  \
             nl, usage)
    int n = OPT_MESSAGE(NULL, 0);
    char *text = n < 0 ? NULL : malloc((size_t)n + 1);
    if (text)
        OPT_MESSAGE(text, (size_t)n + 1);
#undef OPT_MESSAGE
    return text;
}
