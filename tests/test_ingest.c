/* placeholder */
#include "ordo_test.h"
int main(void) { return 0; }
