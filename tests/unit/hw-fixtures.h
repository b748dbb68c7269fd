/* hw-fixtures.h: the machine the hardware tests read: the fake NVML
 * (tests/lib/fake-nvml.c) answering from a fixture of tests/fixtures/nvml/,
 * and the sysfs trees of tests/fixtures/sysfs/. Shared by the doctor,
 * bench and hardware-layer tests so each points at the same doubles. */
#ifndef SN_TEST_HW_FIXTURES_H
#define SN_TEST_HW_FIXTURES_H

#define SN_TEST_SYSFS "tests/fixtures/sysfs/"
#define SN_TEST_NVML "tests/fixtures/nvml/"

/* The path of the fake NVML library of this build ($SN_BUILD/lib, else
 * build/test/lib), set to answer from fixture (a path; NULL leaves the
 * fixture as it was). The string is static. */
const char *sn_test_fake_nvml(const char *fixture);

#endif
