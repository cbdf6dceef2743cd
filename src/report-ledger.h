#ifndef REPORT_LEDGER_H
#define REPORT_LEDGER_H

#include <git2.h>

#include "ledger.h"
#include "strbuf.h"

/*
 * What mark prints: one line per decision, e.g. "rejected
 * 1a2b3c4d5e6f for B: subject (why)", the subject read from repo;
 * and the decisions in force for a branch at now, in the order they
 * were recorded (mark --list).
 */
void report_decision(struct strbuf *out, git_repository *repo,
		     const struct ledger_entry *e);
void report_decisions_in_force(struct strbuf *out, git_repository *repo,
			       const struct ledger *l, const char *branch,
			       git_time_t now);

#endif
