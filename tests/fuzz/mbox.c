/*
 * Fuzz target: mbox_read(), the mbox reader (From_ lines, headers,
 * RFC 2047 words, quoted-printable, base64, multipart), and the
 * commit-message parser on each body, as `stablepick audit` does.
 *
 * The input is the file, passed as it is (mbox_read() needs no NUL at
 * its end).  What mbox.h promises of the messages is checked, and that
 * mbox_next_message() finds the same places to split.
 */
#include "fuzz.h"
#include "formats/mbox.h"
#include "formats/message.h"
#include "base/util.h"

#include <string.h>

/* A header string: UTF-8 on one line, no control characters. */
static int clean_line(const char *s)
{
	size_t len, i = 0, n;

	if (!s)
		return 1;
	len = strlen(s);
	while (i < len) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			return 0;
		n = utf8_seq_len((const unsigned char *)s + i, len - i);
		if (!n)
			return 0;
		i += n;
	}
	return 1;
}

static size_t count_lines(const uint8_t *data, size_t size)
{
	size_t n = 1, i;

	for (i = 0; i < size; i++)
		n += data[i] == '\n';
	return n;
}

static void check(const struct mbox_msg *m, size_t index, size_t lines)
{
	struct message msg;

	FUZZ_CHECK(m->index == index);
	FUZZ_CHECK(m->line >= 1 && m->line <= lines);
	FUZZ_CHECK(clean_line(m->message_id));
	FUZZ_CHECK(clean_line(m->in_reply_to));
	FUZZ_CHECK(clean_line(m->subject));
	FUZZ_CHECK(clean_line(m->from));
	FUZZ_CHECK(clean_line(m->date));
	FUZZ_CHECK(clean_line(m->title));
	FUZZ_CHECK(clean_line(m->version));
	FUZZ_CHECK(m->body);
	FUZZ_CHECK(!m->subject == !m->title);
	FUZZ_CHECK(!m->diff || !strncmp(m->diff, "diff --git ", 11));
	FUZZ_CHECK(m->number >= 0 && m->total >= 0);
	FUZZ_CHECK(!m->problem || (m->problem_line >= 1 &&
				   m->problem_line <= lines + 1));

	message_init(&msg);
	message_parse(&msg, m->body, strlen(m->body));
	message_release(&msg);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_quiet();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mbox mb = MBOX_INIT;
	size_t i, lines = count_lines(data, size);

	if (mbox_read(&mb, "fuzz.mbox", (const char *)data, size) < 0) {
		/* A failed read leaves out as it was. */
		FUZZ_CHECK(!mb.nr && !mb.msgs);
		return 0;
	}
	FUZZ_CHECK(mb.nr >= 1);
	for (i = 0; i < mb.nr; i++) {
		const struct mbox_msg *m = &mb.msgs[i];
		size_t j;

		check(m, i + 1, lines);
		for (j = 0; j < m->nr_references; j++)
			FUZZ_CHECK(clean_line(m->references[j]));
		/* Each message's bytes are in the file, in order. */
		FUZZ_CHECK(m->offset <= size && m->length <= size - m->offset);
		FUZZ_CHECK(!i || m->offset >= mb.msgs[i - 1].offset +
					       mb.msgs[i - 1].length);
		/* A large file is read in pieces that split where this did. */
		if (i)
			FUZZ_CHECK(mbox_next_message((const char *)data, size,
						     mb.msgs[i - 1].offset + 1) ==
				   m->offset);
	}
	mbox_release(&mb);
	return 0;
}
