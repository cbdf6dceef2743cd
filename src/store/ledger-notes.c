#include "store/ledger.h"
#include "store/ledger-internal.h"
#include "base/error.h"
#include "base/lockfile.h"
#include "base/strbuf.h"
#include "base/util.h"

#include <string.h>

/*
 * The ledger shared through a notes ref (see ledger_sync() in ledger.h):
 * both sides are read as sets of decision lines, formatted again from
 * what was parsed (so with the branch's key), and each side gets what
 * only the other has.
 */

/* A decision line, where it was found. */
struct sync_line {
	char *text;		/* the line, newline included */
	git_oid commit;
	git_time_t when;
	int in_file, in_notes;
	UT_hash_handle hh;
};

struct sync_set {
	struct sync_line *lines;	/* uthash by text */
	int from_notes;
};

static void sync_line_free(struct sync_line *sl)
{
	free(sl->text);
	free(sl);
}

static void add_line(const struct ledger_entry *e, struct sync_set *set)
{
	struct strbuf sb = STRBUF_INIT;
	struct sync_line *sl;

	ledger_format_entry(&sb, e);
	HASH_FIND_STR(set->lines, sb.buf, sl);
	if (!sl) {
		sl = xcalloc(1, sizeof(*sl));
		sl->text = strbuf_detach(&sb, NULL);
		git_oid_cpy(&sl->commit, &e->commit);
		sl->when = e->when;
		HASH_ADD_KEYPTR(hh, set->lines, sl->text, strlen(sl->text), sl);
	}
	strbuf_release(&sb);
	if (set->from_notes)
		sl->in_notes = 1;
	else
		sl->in_file = 1;
}

static void add_file_line(const struct ledger_entry *e, unsigned lineno,
			  void *data)
{
	(void)lineno;
	add_line(e, data);
}

/* What parsing one note needs: the commit it annotates. */
struct note_ctx {
	struct sync_set *set;
	const git_oid *annotated;
	const char *label;
	int bad;
};

static void add_note_line(const struct ledger_entry *e, unsigned lineno,
			  void *data)
{
	struct note_ctx *ctx = data;
	char hex[GIT_OID_HEXSZ + 1];

	if (!git_oid_equal(&e->commit, ctx->annotated)) {
		git_oid_tostr(hex, sizeof(hex), &e->commit);
		ctx->bad = error("%s:%u: a decision about %s in the note of "
				 "another commit", ctx->label, lineno, hex);
		return;
	}
	add_line(e, ctx->set);
}

char *ledger_notes_ref(const char *name)
{
	char *full;
	int valid = 0;

	if (starts_with(name, "refs/notes/"))
		full = xstrdup(name);
	else if (starts_with(name, "notes/"))
		full = xstrfmt("refs/%s", name);
	else
		full = xstrfmt("refs/notes/%s", name);
	if (git_reference_name_is_valid(&valid, full) < 0 || !valid) {
		git_error_clear();
		error("bad notes ref '%s'", name);
		free(full);
		return NULL;
	}
	return full;
}

/* One note: its lines into set, labelled "REF:COMMIT". */
static int read_note(struct ledger *l, struct sync_set *set, const char *ref,
		     const git_oid *blob_id, const git_oid *annotated)
{
	char hex[GIT_OID_HEXSZ + 1];
	struct note_ctx ctx = { set, annotated, NULL, 0 };
	git_blob *blob = NULL;
	char *label;
	unsigned lines;
	int ret;

	git_oid_tostr(hex, sizeof(hex), annotated);
	label = xstrfmt("%s:%s", ref, hex);
	ctx.label = label;
	if (git_blob_lookup(&blob, l->repo, blob_id) < 0) {
		ret = error_git("cannot read the note '%s'", label);
		goto out;
	}
	ret = ledger_parse(l, git_blob_rawcontent(blob),
			   (size_t)git_blob_rawsize(blob), label, 0,
			   add_note_line, &ctx, &lines);
	if (ctx.bad)
		ret = -1;
out:
	git_blob_free(blob);
	free(label);
	return ret;
}

/*
 * Every note of ref into set; *tip the notes commit read, NULL when the
 * ref does not exist yet.  Reports every bad line of every note.
 */
static int read_notes(struct ledger *l, struct sync_set *set, const char *ref,
		      git_commit **tip)
{
	git_note_iterator *it = NULL;
	git_oid id, blob_id, annotated;
	int err, ret = 0;

	*tip = NULL;
	err = git_reference_name_to_id(&id, l->repo, ref);
	if (err == GIT_ENOTFOUND) {
		git_error_clear();
		return 0;
	}
	if (err < 0)
		return error_git("cannot read the notes ref '%s'", ref);
	if (git_commit_lookup(tip, l->repo, &id) < 0)
		return error_git("'%s' is not a notes commit", ref);
	if (git_note_commit_iterator_new(&it, *tip) < 0)
		return error_git("cannot read the notes of '%s'", ref);
	set->from_notes = 1;
	while (!(err = git_note_next(&blob_id, &annotated, it)))
		if (read_note(l, set, ref, &blob_id, &annotated) < 0)
			ret = -1;
	set->from_notes = 0;
	if (err != GIT_ITEROVER)
		ret = error_git("cannot read the notes of '%s'", ref);
	git_error_clear();
	git_note_iterator_free(it);
	return ret;
}

/* Oldest first, then by text: the order lines are appended to the file. */
static int by_when(const void *a, const void *b)
{
	const struct sync_line *x = *(const struct sync_line *const *)a;
	const struct sync_line *y = *(const struct sync_line *const *)b;

	if (x->when != y->when)
		return x->when < y->when ? -1 : 1;
	return strcmp(x->text, y->text);
}

/* By commit, then by text: each note's lines together, sorted. */
static int by_commit(const void *a, const void *b)
{
	const struct sync_line *x = *(const struct sync_line *const *)a;
	const struct sync_line *y = *(const struct sync_line *const *)b;
	int c = git_oid_cmp(&x->commit, &y->commit);

	return c ? c : strcmp(x->text, y->text);
}

/* The lines of set, sorted by cmp. */
static struct sync_line **sorted_lines(struct sync_set *set, size_t *nr,
				       int (*cmp)(const void *, const void *))
{
	struct sync_line **v, *sl, *tmp;
	size_t i = 0;

	*nr = HASH_COUNT(set->lines);
	v = xcalloc(*nr ? *nr : 1, sizeof(*v));
	HASH_ITER(hh, set->lines, sl, tmp)
		v[i++] = sl;
	QSORT(v, *nr, cmp);
	return v;
}

/* The repository's identity, else "stablepick", at ledger_now(). */
static int sync_signature(git_signature **out, git_repository *repo)
{
	git_signature *def = NULL;
	git_time_t now;
	int ret;

	if (ledger_now(&now) < 0)
		return -1;
	if (!git_signature_default(&def, repo)) {
		ret = git_signature_new(out, def->name, def->email, now, 0);
		git_signature_free(def);
	} else {
		git_error_clear();
		ret = git_signature_new(out, "stablepick", "stablepick", now, 0);
	}
	if (ret < 0)
		return error_git("cannot make the notes commit's signature");
	return 0;
}

/*
 * Moves ref from tip (NULL: it did not exist) to id, failing if another
 * sync moved it meanwhile.
 */
static int update_ref(git_repository *repo, const char *ref,
		      const git_commit *tip, const git_oid *id)
{
	git_reference *r = NULL;
	int err;

	if (tip)
		err = git_reference_create_matching(&r, repo, ref, id, 1,
						    git_commit_id(tip),
						    "stablepick ledger sync");
	else
		err = git_reference_create(&r, repo, ref, id, 0,
					   "stablepick ledger sync");
	git_reference_free(r);
	if (err == GIT_EMODIFIED || err == GIT_EEXISTS) {
		git_error_clear();
		return error("'%s' moved during the sync (another one?): "
			     "nothing was written, run it again", ref);
	}
	if (err < 0)
		return error_git("cannot update '%s'", ref);
	return 0;
}

/*
 * Writes a note for each commit with a line only the file has (the
 * note then holds every line of the commit), chained by libgit2's notes
 * API, then one commit on tip with the last tree: the history gains
 * one commit, whatever the number of notes.
 */
static int write_notes(struct ledger *l, struct sync_set *set, const char *ref,
		       git_commit *tip, struct ledger_sync *out)
{
	struct strbuf note = STRBUF_INIT, msg = STRBUF_INIT;
	git_signature *sig = NULL;
	git_commit *cur = NULL;
	git_tree *tree = NULL;
	struct sync_line **v;
	git_oid id, blob;
	size_t nr, i, j, k;
	int changed, ret = 0;

	v = sorted_lines(set, &nr, by_commit);
	if (sync_signature(&sig, l->repo) < 0) {
		ret = -1;
		goto out;
	}
	for (i = 0; !ret && i < nr; i = j) {
		changed = 0;
		strbuf_reset(&note);
		for (j = i; j < nr && git_oid_equal(&v[j]->commit, &v[i]->commit); j++) {
			strbuf_addstr(&note, v[j]->text);
			changed += !v[j]->in_notes;
		}
		if (!changed)
			continue;
		if (git_note_commit_create(&id, &blob, l->repo, cur ? cur : tip,
					   sig, sig, &v[i]->commit, note.buf, 1) < 0) {
			ret = error_git("cannot write a note to '%s'", ref);
			break;
		}
		git_commit_free(cur);
		cur = NULL;
		if (git_commit_lookup(&cur, l->repo, &id) < 0) {
			ret = error_git("cannot read the notes commit");
			break;
		}
		out->notes++;
		out->to_notes += (size_t)changed;
		for (k = i; k < j; k++)
			v[k]->in_notes = 1;
	}
	if (ret || !cur)
		goto out;
	strbuf_addf(&msg, "stablepick ledger sync: %zu decision%s in %zu note%s\n",
		    out->to_notes, out->to_notes == 1 ? "" : "s", out->notes,
		    out->notes == 1 ? "" : "s");
	if (git_commit_tree(&tree, cur) < 0 ||
	    git_commit_create(&out->commit, l->repo, NULL, sig, sig, NULL,
			      msg.buf, tree, tip ? 1 : 0,
			      (const git_commit **)&tip) < 0) {
		ret = error_git("cannot write the notes commit");
		goto out;
	}
	ret = update_ref(l->repo, ref, tip, &out->commit);
out:
	git_tree_free(tree);
	git_commit_free(cur);
	git_signature_free(sig);
	strbuf_release(&note);
	strbuf_release(&msg);
	free(v);
	return ret;
}

/* Appends to text the lines only the notes have, oldest first. */
static void add_to_file(struct strbuf *text, struct sync_set *set,
			struct ledger_sync *out)
{
	struct sync_line **v;
	size_t nr, i;

	v = sorted_lines(set, &nr, by_when);
	for (i = 0; i < nr; i++) {
		if (v[i]->in_file)
			continue;
		if (!text->len)
			strbuf_addstr(text, LEDGER_HEADER "\n");
		else if (text->buf[text->len - 1] != '\n')
			strbuf_addch(text, '\n');
		strbuf_addstr(text, v[i]->text);
		out->to_file++;
	}
	free(v);
}

int ledger_sync(struct ledger *l, const char *ref, struct ledger_sync *out)
{
	struct sync_set set = { NULL, 0 };
	struct strbuf text = STRBUF_INIT;
	struct sync_line *sl, *tmp;
	git_commit *tip = NULL;
	struct lockfile lk;
	unsigned lines;
	int ret;

	memset(out, 0, sizeof(*out));
	out->ref = xstrdup(ref);
	if (!l->repo)
		BUG("ledger_sync() without a repository");
	l->future = 0;
	if (ledger_now(&l->now) < 0)
		return -1;
	if (lockfile_take(&lk, l->path, "ledger") < 0)
		return -1;
	ret = ledger_read_file(&text, l->path);
	if (!ret)
		ret = ledger_parse(l, text.buf, text.len, l->path, 1,
				   add_file_line, &set, &lines);
	if (read_notes(l, &set, ref, &tip) < 0)
		ret = -1;
	/* Notes first: if they cannot be written, the file stays too. */
	if (!ret)
		ret = write_notes(l, &set, ref, tip, out);
	if (!ret)
		add_to_file(&text, &set, out);
	if (!ret && out->to_file)
		ret = lockfile_commit(&lk, text.buf, text.len);
	else
		lockfile_rollback(&lk);
	out->decisions = HASH_COUNT(set.lines);
	out->skipped = l->future;
	l->future_said |= l->future > 0;
	HASH_FREE_ALL(set.lines, sl, tmp, sync_line_free);
	git_commit_free(tip);
	strbuf_release(&text);
	if (!ret)
		ret = ledger_load(l);
	return ret;
}

void ledger_sync_release(struct ledger_sync *s)
{
	free(s->ref);
	s->ref = NULL;
}
