#include "cli.h"
#include "audit.h"
#include "error.h"
#include "ledger.h"
#include "mail.h"
#include "mbox.h"
#include "message.h"
#include "patchid.h"
#include "treediff.h"
#include "report.h"
#include "strbuf.h"
#include "util.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

/*
 * Exit status when a pick is rejected, or a pick mail could not be
 * judged (1 is an error, 129 usage).
 */
#define EXIT_REJECTED 2

enum format { FORMAT_TEXT, FORMAT_JSON, FORMAT_EMAIL };
static const char *const format_names[] = { "text", "json", "email" };

/* The thread the picks came in, for the reply. */
struct thread {
	char *message_id, *subject, *from;
};

/* A line's first word, "#" starting a comment; cut in place. */
static char *first_word(char *line)
{
	char *word;

	line[strcspn(line, "#")] = '\0';
	word = line + strspn(line, " \t\r");
	word[strcspn(word, " \t\r")] = '\0';
	return word;
}

/*
 * A list of picks: one revision a line (its first word: "1a2b3c4d5e6f
 * xfs: fix ..." as git log --oneline writes it), "#" comments and blank
 * lines ignored.  "-" reads standard input.
 */
static int read_picks(git_repository *repo, const char *path, struct audit *a)
{
	struct strbuf sb = STRBUF_INIT, src = STRBUF_INIT;
	char *line, *save = NULL;
	size_t lineno = 0;
	int ret = 0;

	if (!strcmp(path, "-")) {
		if (strbuf_read_fd(&sb, 0) < 0)
			ret = error("cannot read the picks from standard input: %s",
				    strerror(errno));
	} else if (strbuf_read_file(&sb, path) < 0) {
		ret = error("cannot read '%s': %s", path, strerror(errno));
	}
	if (ret)
		goto out;
	/* strtok_r() would skip empty lines: walk them by hand. */
	for (line = sb.buf; !ret && line && line < sb.buf + sb.len; line = save) {
		char *end = strchr(line, '\n');
		char *word;
		git_object *obj = NULL, *peeled = NULL;

		save = end ? end + 1 : NULL;
		if (end)
			*end = '\0';
		lineno++;
		word = first_word(line);
		if (!*word)
			continue;
		if (git_revparse_single(&obj, repo, word) < 0 ||
		    git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0) {
			git_error_clear();
			ret = error("%s:%zu: bad revision '%s'", path, lineno, word);
		} else {
			strbuf_reset(&src);
			strbuf_addf(&src, "%s:%zu", path, lineno);
			audit_add(a, git_object_id(peeled), src.buf);
		}
		git_object_free(peeled);
		git_object_free(obj);
	}
	if (!ret && !a->nr)
		ret = error("%s: no picks", path);
out:
	strbuf_release(&src);
	strbuf_release(&sb);
	return ret;
}

/*
 * A pick mail: its mainline commit is the one the presence engine
 * finds for it: the commit its upstream line names ("commit X
 * upstream.", "[ Upstream commit X ]"), else the commit of the range
 * with its change (paths and patch-id), else the one commit of the
 * range with its subject and a file of the same name.  Cover letters
 * (0/N) and replies are not picks.  A message that cannot be
 * understood or matched is reported (where: "FILE:LINE: message N",
 * with its Message-ID) and counted in *skipped.
 */
static int pick_from_mail(struct run_context *ctx, struct run *run,
			  const struct mbox_msg *m, const char *where,
			  const char *source, struct audit *a, size_t *skipped)
{
	const char *msgid = m->message_id ? m->message_id : "no Message-ID";
	struct match_found found;
	struct match_pick pick;
	struct audit_pick *p;
	struct message parsed;
	const char *why = NULL;
	int r;

	if (m->problem) {
		warning("%s <%s>: %s; skipped", where, msgid, m->problem);
		(*skipped)++;
		return 0;
	}
	if (m->is_reply || (m->total && !m->number))
		return 0;
	message_init(&parsed);
	message_parse(&parsed, m->body, strlen(m->body));
	memset(&pick, 0, sizeof(pick));
	pick.msg = &parsed;
	pick.diff = m->diff;
	pick.subject = m->title;
	r = match_mainline(run_match(run, ctx->repo), &pick, &found, &why);
	if (!r) {
		warning("%s <%s> (\"%s\"): no mainline commit found (%s; no "
			"commit of %s has its change or, alone, its subject); "
			"skipped", where, msgid, m->title ? m->title : "no subject",
			why, run->scan.range);
		(*skipped)++;
	} else if (r > 0) {
		p = audit_add(a, &found.id, source);
		if (m->message_id)
			p->message_id = xstrdup(m->message_id);
	}
	message_release(&parsed);
	return r < 0 ? -1 : 0;
}

static int read_mbox(struct run_context *ctx, struct run *run,
		     const char *path, struct audit *a, size_t *skipped,
		     struct thread *t)
{
	struct strbuf src = STRBUF_INIT, where = STRBUF_INIT;
	struct mbox mb;
	size_t i;
	int ret;

	mbox_init(&mb);
	if ((ret = mbox_read_file(&mb, path)) < 0)
		goto out;
	for (i = 0; i < mb.nr; i++) {
		const struct mbox_msg *m = &mb.msgs[i];

		strbuf_reset(&src);
		strbuf_addf(&src, "%s#%zu", path, m->index);
		strbuf_reset(&where);
		strbuf_addf(&where, "%s:%zu: message %zu", path,
			    m->problem && m->problem_line ? m->problem_line : m->line,
			    m->index);
		if ((ret = pick_from_mail(ctx, run, m, where.buf, src.buf, a,
					  skipped)) < 0)
			break;
		/* The thread: the cover letter, else the first mail. */
		if (m->message_id && !m->is_reply &&
		    (!t->message_id || (m->total && !m->number))) {
			free(t->message_id);
			free(t->subject);
			free(t->from);
			t->message_id = xstrdup(m->message_id);
			t->subject = m->subject ? xstrdup(m->subject) : NULL;
			t->from = m->from ? xstrdup(m->from) : NULL;
		}
	}
	if (!a->nr && !*skipped)
		ret = error("%s: no pick mails", path);
out:
	strbuf_release(&src);
	strbuf_release(&where);
	mbox_release(&mb);
	return ret;
}

/*
 * A stable-queue directory: its "series" file names the patch files,
 * one a line, in the order to apply them ("#" comments); each is one
 * mail as git format-patch writes it.
 */
static int read_queue(struct run_context *ctx, struct run *run,
		      const char *dir, struct audit *a, size_t *skipped)
{
	struct strbuf series = STRBUF_INIT, path = STRBUF_INIT;
	char *line, *next;
	size_t lineno = 0;
	int ret = 0;

	strbuf_addf(&path, "%s/series", dir);
	if (strbuf_read_file(&series, path.buf) < 0) {
		ret = error("cannot read '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	for (line = series.buf; !ret && line < series.buf + series.len;
	     line = next) {
		char *end = strchr(line, '\n'), *name;
		struct mbox mb;

		next = end ? end + 1 : series.buf + series.len;
		if (end)
			*end = '\0';
		lineno++;
		name = first_word(line);
		if (!*name)
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, name);
		mbox_init(&mb);
		if (mbox_read_file(&mb, path.buf) < 0) {
			ret = error("%s/series:%zu: cannot read the patch '%s'",
				    dir, lineno, name);
		} else if (mb.nr != 1) {
			ret = error("%s/series:%zu: '%s' holds %zu messages, not "
				    "one patch", dir, lineno, name, mb.nr);
		} else {
			ret = pick_from_mail(ctx, run, &mb.msgs[0], path.buf,
					     path.buf, a, skipped);
		}
		mbox_release(&mb);
	}
	if (!ret && !a->nr && !*skipped)
		ret = error("%s/series: no patches", dir);
out:
	strbuf_release(&series);
	strbuf_release(&path);
	return ret;
}

/*
 * A range already applied to a branch ("v6.1.60..v6.1.61"): its
 * commits, oldest first, are the picks, each standing for the mainline
 * commit the presence engine finds for it (its upstream line, else the
 * change, else the subject), and tried onto the branch as it was
 * applied.  The branch is judged as it was at the range's start.
 */
static int read_applied(struct run_context *ctx, struct run *run,
			const char *range, struct audit *a, size_t *skipped)
{
	struct match *mt = run_match(run, ctx->repo);
	git_revwalk *walk = NULL;
	struct strbuf src = STRBUF_INIT;
	git_oid id;
	int ret;

	if (git_revwalk_new(&walk, ctx->repo) < 0 ||
	    git_revwalk_push_range(walk, range) < 0) {
		git_revwalk_free(walk);
		return error_git("bad range '%s'", range);
	}
	git_revwalk_sorting(walk, GIT_SORT_TOPOLOGICAL | GIT_SORT_REVERSE);
	while (!(ret = git_revwalk_next(&id, walk))) {
		git_commit *commit = NULL;
		struct match_found found;
		struct match_pick pick;
		struct audit_pick *p;
		const char *raw, *why = NULL;
		char hex[GIT_OID_HEXSZ + 1];
		struct message m;
		int r;

		if (git_commit_lookup(&commit, ctx->repo, &id) < 0) {
			ret = error_git("cannot read a commit of %s", range);
			break;
		}
		git_oid_tostr(hex, sizeof(hex), &id);
		if (git_commit_parentcount(commit) > 1) {
			git_commit_free(commit);
			continue;
		}
		raw = git_commit_message(commit);
		message_init(&m);
		message_parse(&m, raw ? raw : "", raw ? strlen(raw) : 0);
		memset(&pick, 0, sizeof(pick));
		pick.msg = &m;
		pick.commit = &id;
		pick.subject = m.subject;
		r = match_mainline(mt, &pick, &found, &why);
		if (r > 0) {
			strbuf_reset(&src);
			strbuf_addf(&src, "%s:%.12s", range, hex);
			p = audit_add(a, &found.id, src.buf);
			git_oid_cpy(&p->applied, &id);
			p->has_applied = 1;
		} else if (!r && (!m.subject || strncmp(m.subject, "Linux ", 6))) {
			/* "Linux 6.1.61", the release commit, is no pick. */
			warning("%s: %.12s (\"%s\"): no mainline commit found "
				"(%s; no commit of %s has its change or, alone, "
				"its subject); skipped", range, hex,
				m.subject ? m.subject : "", why, run->scan.range);
			(*skipped)++;
		}
		message_release(&m);
		git_commit_free(commit);
		if (r < 0) {
			ret = -1;
			break;
		}
	}
	git_revwalk_free(walk);
	strbuf_release(&src);
	if (ret != GIT_ITEROVER)
		return ret < 0 ? -1 : ret;
	if (!a->nr && !*skipped)
		return error("%s: no commits", range);
	return 0;
}

/* The picks the range did not judge (below the base, elsewhere): alone. */
static int judge_outside(struct run_context *ctx, struct run *run,
			 const struct audit *a, struct candidate_list *extra)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < a->nr; i++) {
		const struct audit_pick *p = &a->picks[i];
		git_commit *commit = NULL;
		struct candidate *c;

		if (candidate_list_find(&run->scan.candidates, &p->id) ||
		    candidate_list_find(extra, &p->id))
			continue;
		if (git_commit_lookup(&commit, ctx->repo, &p->id) < 0)
			return error_git("cannot read commit %s", p->hex);
		if (git_commit_parentcount(commit) > 1) {
			git_commit_free(commit);
			return error("%s: %.12s is a merge; list the commits it "
				     "brings in", p->source, p->hex);
		}
		c = candidate_list_add(extra, &p->id);
		ret = scan_fill(&run->scan, c, commit);
		git_commit_free(commit);
	}
	if (!ret && extra->nr)
		ret = run_judge(run, ctx->repo, extra, NULL);
	return ret;
}

/*
 * The reply to the pick thread: In-Reply-To its first message (the
 * cover letter if there is one) or --in-reply-to, To its sender.
 */
static int reply(struct run_context *ctx, struct run *run,
		 const struct audit *a, const struct thread *t,
		 const char *in_reply_to, struct strbuf *out)
{
	struct audit_reply r;
	git_signature *me = NULL;
	struct strbuf cc = STRBUF_INIT;
	char hex[GIT_OID_HEXSZ + 1];
	char *id, *local;
	git_time_t now;

	if (ledger_now(&now) < 0)
		return -1;
	if (git_signature_default(&me, ctx->repo) < 0)
		git_error_clear();
	memset(&r, 0, sizeof(r));
	r.from_name = me ? me->name : "stablepick";
	r.from_email = me ? me->email : "stablepick@localhost";
	r.to = t->from;
	r.cc = run_mail_cc(ctx, &run->rules, &cc);
	r.subject = t->subject;
	if (in_reply_to)
		r.in_reply_to = in_reply_to + (*in_reply_to == '<');
	else
		r.in_reply_to = t->message_id;
	r.now = now;
	r.branch = run->branch.name;
	r.range = run->scan.range;
	git_oid_tostr(hex, sizeof(hex), a->nr ? &a->picks[0].id : &run->upstream);
	local = xstrfmt("stablepick.audit.%s.%.12s", run->branch.name, hex);
	id = mail_message_id(local, r.from_email);
	free(local);
	r.message_id = id;
	/* "<id>" as given on the command line: the brackets are ours. */
	if (in_reply_to) {
		char *bare = xstrndup(r.in_reply_to, strcspn(r.in_reply_to, ">"));

		r.in_reply_to = bare;
		audit_email(out, a, &r);
		free(bare);
	} else {
		audit_email(out, a, &r);
	}
	free(id);
	git_signature_free(me);
	strbuf_release(&cc);
	return 0;
}

static int audit(struct run_context *ctx, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "archive", required_argument, NULL, 'A' },
		{ "branch", required_argument, NULL, 'b' },
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ "in-reply-to", required_argument, NULL, 'i' },
		{ "mbox", required_argument, NULL, 'm' },
		{ "picks", required_argument, NULL, 'p' },
		{ "queue", required_argument, NULL, 'q' },
		{ "range", required_argument, NULL, 'r' },
		{ "upstream", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 }
	};
	const char *branch = NULL, *upstream = NULL, *picks = NULL;
	const char *mbox = NULL, *queue = NULL, *in_reply_to = NULL;
	const char *applied = NULL, **archives = NULL;
	size_t nr_archives = 0, alloc_archives = 0;
	char *start = NULL;
	struct thread thread = { NULL, NULL, NULL };
	size_t skipped = 0;
	enum format format = FORMAT_TEXT;
	struct candidate_list extra;
	struct strbuf out = STRBUF_INIT;
	struct run run;
	struct audit a;
	int opt, f, ret;

	optind = 0;
	while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'A':
			ALLOC_GROW(archives, nr_archives, alloc_archives);
			archives[nr_archives++] = optarg;
			break;
		case 'b': branch = optarg; break;
		case 'f':
			if ((f = cli_format(optarg, format_names,
					      ARRAY_SIZE(format_names))) < 0)
				goto usage;
			format = (enum format)f;
			break;
		case 'h':
			printf("usage: stablepick audit %s\n", cmd_audit.usage);
			free(archives);
			return 0;
		case 'i': in_reply_to = optarg; break;
		case 'm': mbox = optarg; break;
		case 'p': picks = optarg; break;
		case 'q': queue = optarg; break;
		case 'r': applied = optarg; break;
		case 'u': upstream = optarg; break;
		default:
			goto usage;
		}
	}
	if (optind != argc) {
		error("unexpected argument '%s'", argv[optind]);
		goto usage;
	}
	if (!branch || !!picks + !!mbox + !!queue + !!applied != 1) {
		error("audit needs --branch, and one of --picks, --mbox, --queue, "
		      "--range");
		goto usage;
	}
	if (applied) {
		const char *dots = strstr(applied, "..");

		if (!dots || dots == applied || strstr(dots + 2, "..") ||
		    dots[2] == '.' || !dots[2]) {
			error("--range needs A..B, the commits applied to the "
			      "branch after A");
			goto usage;
		}
		start = xstrndup(applied, (size_t)(dots - applied));
	}

	audit_init(&a);
	candidate_list_init(&extra);
	/* An applied range is judged against the branch as it was before. */
	ret = run_setup(ctx, &run, start ? start : branch, upstream);
	if (!ret && start) {
		free(run.branch.name);
		run.branch.name = xstrdup(branch);
	}
	if (!ret && picks)
		ret = read_picks(ctx->repo, picks, &a);
	if (!ret)
		ret = run_scan(ctx, &run);
	if (!ret)
		ret = run_open_archives(ctx, &run, archives, nr_archives);
	if (!ret)
		ret = run_judge(&run, ctx->repo, &run.scan.candidates,
				&run.scan.from);
	/* Mails are matched by subject too: after the scan. */
	if (!ret && mbox)
		ret = read_mbox(ctx, &run, mbox, &a, &skipped, &thread);
	if (!ret && queue)
		ret = read_queue(ctx, &run, queue, &a, &skipped);
	if (!ret && applied)
		ret = read_applied(ctx, &run, applied, &a, &skipped);
	if (!ret)
		ret = judge_outside(ctx, &run, &a, &extra);
	if (!ret)
		ret = audit_run(&a, ctx->repo, &run.rules, &run.branch,
				&run.scan.candidates, &extra);
	if (!ret) {
		if (format == FORMAT_JSON)
			audit_json(&out, &a);
		else if (format == FORMAT_EMAIL)
			ret = reply(ctx, &run, &a, &thread, in_reply_to, &out);
		else
			audit_text(&out, &a);
	}
	if (!ret)
		ret = report_write(stdout, &out);
	if (!ret)
		ret = run_save(ctx, &run);
	if (!ret && (audit_worst(&a) == AUDIT_REJECT || skipped))
		ret = EXIT_REJECTED;
	strbuf_release(&out);
	free(start);
	free(thread.message_id);
	free(thread.subject);
	free(thread.from);
	candidate_list_release(&extra);
	audit_release(&a);
	run_release(&run);
	free(archives);
	return ret < 0 ? 1 : ret;
usage:
	free(archives);
	return cli_usage(&cmd_audit);
}

const struct cli_command cmd_audit = {
	"audit",
	"--branch BRANCH (--picks FILE|- | --mbox FILE|- | --queue DIR |\n"
	"                        --range A..B) [--archive PATH]...\n"
	"                        [--format text|json|email] [--in-reply-to MSGID]\n"
	"                        [--upstream REF]",
	"judge someone else's picks: ok, questionable or reject, and why",
	audit,
};
