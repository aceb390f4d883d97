/**
 * The PostgreSQL ledger: claims, completions, failures and runs, with the FilterAgainstLedger and
 * CommitLedger stages ({@link io.tilebeam.io.ledger.LedgerIO}); the embedded server of the default
 * set-up.
 */
package io.tilebeam.io.ledger;
