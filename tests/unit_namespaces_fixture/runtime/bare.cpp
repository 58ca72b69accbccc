// A test file whose names are not in a namespace unit_bare: the check
// tests.unit_namespaces.catches_a_missing_one must name it. Never compiled.
int bare_helper() { return 0; }
