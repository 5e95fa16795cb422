/* `cmake --install` into a scratch prefix, then a consumer built with
 * find_package(ordo) and one built with pkg-config both run correctly.
 * ORDO_WITH_TOOL: the tool is installed too, and reads the tables back. */
#include "ordo_test.h"

#include <sys/stat.h>
#include <unistd.h>

static char prefix[] = "/tmp/ordo-install-XXXXXX";


static void read_file(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = 0;
    fclose(f);
}

static void install_and_consume(void **state)
{
    (void)state;
    char out[256];
    assert_non_null(mkdtemp(prefix));
    assert_int_equal(t_sh("'%s' --install '%s' --prefix '%s' > '%s/install.log' 2>&1", ORDO_CMAKE,
                        ORDO_BUILD_DIR, prefix, prefix), 0);
    /* find_package(ordo) + ordo::ordo */
    assert_int_equal(t_sh("'%s' -S '%s' -B '%s/consumer-build' -DCMAKE_PREFIX_PATH='%s' "
                        "-DORDO_EXAMPLES_DIR='" ORDO_EXAMPLES_DIR "' "
                        "-DCMAKE_C_COMPILER='%s' > '%s/consumer.log' 2>&1 && "
                        "'%s' --build '%s/consumer-build' >> '%s/consumer.log' 2>&1",
                        ORDO_CMAKE, ORDO_CONSUMER_DIR, prefix, prefix, ORDO_C_COMPILER, prefix,
                        ORDO_CMAKE, prefix, prefix),
                     0);
    assert_int_equal(t_sh("'%s/consumer-build/consumer' > '%s/out1.txt'", prefix, prefix), 0);
    snprintf(out, sizeof out, "%s/out1.txt", prefix);
    char text[256];
    read_file(out, text, sizeof text);
    assert_string_equal(text, "666f6f00800000000000002a0001\n");
    /* pkg-config, from the relocated prefix; the linker takes the shared
     * libraries, found at run time through LD_LIBRARY_PATH
     * (test_pkgconfig_install.sh links the static ones too) */
    char libdir[300];
    snprintf(libdir, sizeof libdir, "%s/%s", prefix, ORDO_INSTALL_LIBDIR);
    assert_int_equal(setenv("LD_LIBRARY_PATH", libdir, 1), 0);
    assert_int_equal(t_sh("PKG_CONFIG_PATH=$(dirname $(find '%s' -name ordo.pc)) && "
                        "export PKG_CONFIG_PATH && '%s' '%s/consumer.c' -o '%s/consumer-pc' "
                        "$(pkg-config --cflags --libs --static ordo)",
                        prefix, ORDO_C_COMPILER, ORDO_CONSUMER_DIR, prefix),
                     0);
    assert_int_equal(t_sh("'%s/consumer-pc' > '%s/out2.txt'", prefix, prefix), 0);
    snprintf(out, sizeof out, "%s/out2.txt", prefix);
    read_file(out, text, sizeof text);
    assert_string_equal(text, "666f6f00800000000000002a0001\n");
#ifdef ORDO_WITH_ROCKSDB
    /* examples/load_csv.c, built with find_package (ordo::table) and with
     * pkg-config (ordo-table, which requires ordo-ingest and ordo-load), loads
     * it; the installed tool scans the tables back */
    char csv[300];
    snprintf(csv, sizeof csv, "%s/in.csv", prefix);
    FILE *f = fopen(csv, "w");
    assert_non_null(f);
    fputs("3,c\n1,\"a, b\"\n2,\n", f);
    fclose(f);
#ifdef ORDO_WITH_TOOL
    static const char want[] = "3 rows\n3,c\n2,\n1,\"a, b\"\n";
#    define SCAN "'%s/bin/ordo' scan --db '%s/%s' --tag 2"
#else
    static const char want[] = "3 rows\n";
#    define SCAN "true '%s' '%s' '%s'"
#endif
    assert_int_equal(t_sh("'%s/consumer-build/load_csv' '%s/db1' '%s' 2 'id int, v text' 'id DESC' "
                          "> '%s/out4.txt' && " SCAN " >> '%s/out4.txt'",
                          prefix, prefix, csv, prefix, prefix, prefix, "db1", prefix),
                     0);
    snprintf(out, sizeof out, "%s/out4.txt", prefix);
    read_file(out, text, sizeof text);
    assert_string_equal(text, want);
    assert_int_equal(t_sh("PKG_CONFIG_PATH=$(dirname $(find '%s' -name ordo-table.pc)) && "
                          "export PKG_CONFIG_PATH && '%s' '%s/load_csv.c' -o '%s/load-csv-pc' "
                          "$(pkg-config --cflags --libs --static ordo-table) && "
                          "'%s/load-csv-pc' '%s/db2' '%s' 2 'id int, v text' 'id DESC' > '%s/out5.txt' && "
                          SCAN " >> '%s/out5.txt'",
                          prefix, ORDO_C_COMPILER, ORDO_EXAMPLES_DIR, prefix, prefix, prefix, csv,
                          prefix, prefix, prefix, "db2", prefix),
                     0);
    snprintf(out, sizeof out, "%s/out5.txt", prefix);
    read_file(out, text, sizeof text);
    assert_string_equal(text, want);
#    undef SCAN
#endif
    /* The generated version header is installed beside ordo.h. */
    assert_int_equal(t_sh("test -f \"$(dirname $(find '%s' -name ordo.h))/ordo_version.h\"", prefix), 0);
#ifdef ORDO_WITH_TOOL
    /* The tool is installed too. */
    assert_int_equal(t_sh("'%s/bin/ordo' encode string:foo > '%s/out3.txt'", prefix, prefix), 0);
    snprintf(out, sizeof out, "%s/out3.txt", prefix);
    read_file(out, text, sizeof text);
    assert_string_equal(text, "666f6f\n");
#else
    assert_int_equal(t_sh("test ! -e '%s/bin/ordo'", prefix), 0);
#endif
    t_sh("rm -rf '%s'", prefix);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(install_and_consume)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
