//! Boolean equation systems and parity games: representation, solvers (Zielonka, Gauss
//! elimination), an independent solution checker, and the PGSolver / mCRL2 BES formats.
