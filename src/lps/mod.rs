//! Linear process specifications: linearisation (`mcrl22lps`), LPS simplifications
//! (sumelm, constelm, parelm), the LPS artifact and its pretty printer.
