/* PostgreSQL collations as ordo collators: the name ordo_collator_open
 * takes is the collation's locale (libc) or ICU locale with "-x-icu", read
 * from pg_collation, or from pg_database for "default". */
#include "collation.h"

#include "access/htup_details.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_database.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/syscache.h"

#include <string.h>

#ifdef ORDO_WITH_ICU
#include <unicode/uloc.h>
#endif

/* Opened collators, for the backend's life (collators are malloc'd by
 * ordo, outside PostgreSQL's memory contexts). */
typedef struct cached {
    Oid coll;
    ordo_collator *c; /* NULL: byte order */
} cached;
static cached *cache;
static int ncache, capcache;

static char *text_attr(int cacheid, HeapTuple tup, AttrNumber att)
{
    bool isnull;
    Datum d = SysCacheGetAttr(cacheid, tup, att, &isnull);
    return isnull ? NULL : TextDatumGetCString(d);
}

/* The locale of a collation: provider ('c' libc, 'i' ICU), locale and
 * recorded version (palloc'd; version may be NULL). */
static void describe(Oid coll, char *provider, char **locale, char **version, const char *what)
{
    if (coll == DEFAULT_COLLATION_OID) {
        HeapTuple tup = SearchSysCache1(DATABASEOID, ObjectIdGetDatum(MyDatabaseId));
        if (!HeapTupleIsValid(tup))
            elog(ERROR, "ordo: cache lookup failed for database %u", MyDatabaseId);
        Form_pg_database db = (Form_pg_database)GETSTRUCT(tup);
        *provider = db->datlocprovider;
        *locale = text_attr(DATABASEOID, tup,
                            *provider == COLLPROVIDER_ICU ? Anum_pg_database_daticulocale
                                                          : Anum_pg_database_datcollate);
        *version = text_attr(DATABASEOID, tup, Anum_pg_database_datcollversion);
        ReleaseSysCache(tup);
        return;
    }
    HeapTuple tup = SearchSysCache1(COLLOID, ObjectIdGetDatum(coll));
    if (!HeapTupleIsValid(tup))
        elog(ERROR, "ordo: cache lookup failed for collation %u", coll);
    Form_pg_collation c = (Form_pg_collation)GETSTRUCT(tup);
    if (!c->collisdeterministic) {
        char *name = pstrdup(NameStr(c->collname));
        ReleaseSysCache(tup);
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("ordo: %s has the nondeterministic collation \"%s\", which ordo "
                               "does not encode",
                               what, name)));
    }
    *provider = c->collprovider;
    if (*provider == COLLPROVIDER_DEFAULT) {
        ReleaseSysCache(tup);
        describe(DEFAULT_COLLATION_OID, provider, locale, version, what);
        return;
    }
    *locale = text_attr(COLLOID, tup,
                        *provider == COLLPROVIDER_ICU ? Anum_pg_collation_colliculocale
                                                      : Anum_pg_collation_collcollate);
    *version = text_attr(COLLOID, tup, Anum_pg_collation_collversion);
    ReleaseSysCache(tup);
}

/* PostgreSQL 15 keeps an ICU locale as it was given, a language tag
 * ("de-DE") or an ICU locale ID ("de_DE", "de@collation=phonebook"), and
 * gives it to ucol_open, which takes both; ordo names ICU collations by
 * tag, so an ID becomes its tag ("de-DE-u-co-phonebk"). */
static const char *icu_tag(const char *locale)
{
#ifdef ORDO_WITH_ICU
    if (strpbrk(locale, "_@")) {
        char tag[ULOC_FULLNAME_CAPACITY];
        UErrorCode e = U_ZERO_ERROR;
        int32_t n = uloc_toLanguageTag(locale, tag, (int32_t)sizeof tag, false, &e);
        if (U_SUCCESS(e) && e != U_STRING_NOT_TERMINATED_WARNING && n > 0)
            return pstrdup(tag);
    }
#endif
    return locale;
}

static ordo_collator *open_collator(Oid coll, const char *what)
{
    if (coll == C_COLLATION_OID || coll == POSIX_COLLATION_OID)
        return NULL;
    char provider = 0, *locale = NULL, *version = NULL;
    describe(coll, &provider, &locale, &version, what);
    if (provider == COLLPROVIDER_LIBC && locale &&
        (!strcmp(locale, "C") || !strcmp(locale, "POSIX")))
        return NULL;
    if (!locale || (provider != COLLPROVIDER_LIBC && provider != COLLPROVIDER_ICU))
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("ordo: %s: collation %u has a provider or locale ordo does not "
                               "know",
                               what, coll)));
    /* ICU locales go by their collation names' form: "de-DE-x-icu" */
    char *name = provider == COLLPROVIDER_ICU ? psprintf("%s-x-icu", icu_tag(locale)) : locale;
    ordo_collator *c = NULL;
    ordo_status st = ordo_collator_open(name, &c);
    if (st != ORDO_OK)
        ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                        errmsg("ordo: %s: collation \"%s\": %s", what, name,
                               ordo_status_message(st))));
    /* PostgreSQL records the provider's version (ICU's collator version,
     * glibc's); ordo's adds "+kN", the revision of its libc keys (SPEC.md
     * 17.6), which is not the provider's. */
    const char *have = ordo_collator_version(c);
    size_t n = strcspn(have, "+");
    if (version && (strlen(version) != n || memcmp(version, have, n))) {
        ordo_collator_close(c);
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("ordo: %s: collation \"%s\" has version %s in the database, but "
                               "ordo's collator has version %s",
                               what, name, version, have),
                        errhint("The keys would not follow the database's order.")));
    }
    return c;
}

const ordo_collator *ordo_pg_collator(Oid coll, const char *what)
{
    if (!OidIsValid(coll))
        return NULL;
    for (int i = 0; i < ncache; i++)
        if (cache[i].coll == coll)
            return cache[i].c;
    if (ncache == capcache) {
        int cap = capcache ? 2 * capcache : 8;
        cached *grown = MemoryContextAlloc(TopMemoryContext, (size_t)cap * sizeof *grown);
        if (ncache)
            memcpy(grown, cache, (size_t)ncache * sizeof *grown);
        if (cache)
            pfree(cache);
        cache = grown, capcache = cap;
    }
    ordo_collator *c = open_collator(coll, what);
    cache[ncache++] = (cached){coll, c};
    return c;
}
