//! Evidence: witnesses and counterexamples extracted from solved BESs and explored LTSs.
