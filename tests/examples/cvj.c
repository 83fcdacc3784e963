/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A small recursive-descent JSON reader (see cvj.h). */
#include "cvj.h"

#include <string.h>

/* Deep enough for cv-json's objects; guards the recursion. */
#define CVJ_MAX_DEPTH 64

typedef struct
{
  const gchar *text;
  const gchar *p;
  GError **error;
} Parser;

static CvjValue *parse_value (Parser * ps, gint depth);

static gboolean
fail (Parser * ps, const gchar * what)
{
  if (ps->error && !*ps->error)
    g_set_error (ps->error, g_quark_from_static_string ("cvj-error"), 0,
        "JSON: %s at offset %ld", what, (long) (ps->p - ps->text));
  return FALSE;
}

static void
skip_space (Parser * ps)
{
  while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
    ps->p++;
}

static CvjValue *
value_new (CvjType type)
{
  CvjValue *v = g_new0 (CvjValue, 1);
  v->type = type;
  return v;
}

void
cvj_free (CvjValue * value)
{
  if (!value)
    return;
  g_free (value->string);
  if (value->items)
    g_ptr_array_unref (value->items);
  if (value->keys)
    g_ptr_array_unref (value->keys);
  g_free (value);
}

static gchar *
parse_string (Parser * ps)
{
  GString *s = g_string_new (NULL);

  ps->p++;                      /* the opening quote */
  while (*ps->p != '"') {
    guchar c = (guchar) * ps->p;

    if (c == '\0' || c < 0x20) {
      fail (ps, "unterminated string or control character in a string");
      return g_string_free (s, TRUE), NULL;
    }
    if (c != '\\') {
      g_string_append_c (s, (gchar) c);
      ps->p++;
      continue;
    }
    ps->p++;
    switch (*ps->p) {
      case '"':
      case '\\':
      case '/':
        g_string_append_c (s, *ps->p);
        break;
      case 'b':
        g_string_append_c (s, '\b');
        break;
      case 'f':
        g_string_append_c (s, '\f');
        break;
      case 'n':
        g_string_append_c (s, '\n');
        break;
      case 'r':
        g_string_append_c (s, '\r');
        break;
      case 't':
        g_string_append_c (s, '\t');
        break;
      case 'u':{
        gint i, code = 0;
        for (i = 1; i <= 4; i++) {
          gint d = g_ascii_xdigit_value (ps->p[i]);
          if (d < 0) {
            fail (ps, "bad \\u escape");
            return g_string_free (s, TRUE), NULL;
          }
          code = code * 16 + d;
        }
        g_string_append_c (s, code < 0x80 ? (gchar) code : '?');
        ps->p += 4;
        break;
      }
      default:
        fail (ps, "bad escape");
        return g_string_free (s, TRUE), NULL;
    }
    ps->p++;
  }
  ps->p++;                      /* the closing quote */
  return g_string_free (s, FALSE);
}

/* JSON's number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
static CvjValue *
parse_number (Parser * ps)
{
  const gchar *start = ps->p, *q = ps->p;
  CvjValue *v;

  if (*q == '-')
    q++;
  if (*q == '0')
    q++;
  else if (g_ascii_isdigit (*q))
    while (g_ascii_isdigit (*q))
      q++;
  else
    return fail (ps, "bad number"), NULL;
  if (*q == '.') {
    q++;
    if (!g_ascii_isdigit (*q))
      return fail (ps, "bad fraction"), NULL;
    while (g_ascii_isdigit (*q))
      q++;
  }
  if (*q == 'e' || *q == 'E') {
    q++;
    if (*q == '+' || *q == '-')
      q++;
    if (!g_ascii_isdigit (*q))
      return fail (ps, "bad exponent"), NULL;
    while (g_ascii_isdigit (*q))
      q++;
  }
  v = value_new (CVJ_NUMBER);
  v->number = g_ascii_strtod (start, NULL);
  ps->p = q;
  return v;
}

static gboolean
literal (Parser * ps, const gchar * word)
{
  gsize n = strlen (word);

  if (strncmp (ps->p, word, n) != 0)
    return fail (ps, "unknown literal");
  ps->p += n;
  return TRUE;
}

static CvjValue *
parse_container (Parser * ps, gint depth, gboolean object)
{
  CvjValue *v = value_new (object ? CVJ_OBJECT : CVJ_ARRAY);
  gchar close = object ? '}' : ']';

  v->items = g_ptr_array_new_with_free_func ((GDestroyNotify) cvj_free);
  if (object)
    v->keys = g_ptr_array_new_with_free_func (g_free);
  ps->p++;
  skip_space (ps);
  if (*ps->p == close) {
    ps->p++;
    return v;
  }
  for (;;) {
    CvjValue *item;

    skip_space (ps);
    if (object) {
      gchar *key;
      if (*ps->p != '"')
        goto error;
      key = parse_string (ps);
      if (!key)
        goto error;
      g_ptr_array_add (v->keys, key);
      skip_space (ps);
      if (*ps->p != ':')
        goto error;
      ps->p++;
    }
    item = parse_value (ps, depth + 1);
    if (!item)
      goto error;
    g_ptr_array_add (v->items, item);
    skip_space (ps);
    if (*ps->p == ',') {
      ps->p++;
      continue;
    }
    if (*ps->p == close) {
      ps->p++;
      return v;
    }
    goto error;
  }
error:
  fail (ps, object ? "bad object" : "bad array");
  cvj_free (v);
  return NULL;
}

static CvjValue *
parse_value (Parser * ps, gint depth)
{
  CvjValue *v;

  if (depth > CVJ_MAX_DEPTH)
    return fail (ps, "nested too deeply"), NULL;
  skip_space (ps);
  switch (*ps->p) {
    case '{':
      return parse_container (ps, depth, TRUE);
    case '[':
      return parse_container (ps, depth, FALSE);
    case '"':{
      gchar *s = parse_string (ps);
      if (!s)
        return NULL;
      v = value_new (CVJ_STRING);
      v->string = s;
      return v;
    }
    case 't':
      if (!literal (ps, "true"))
        return NULL;
      v = value_new (CVJ_BOOL);
      v->boolean = TRUE;
      return v;
    case 'f':
      if (!literal (ps, "false"))
        return NULL;
      return value_new (CVJ_BOOL);
    case 'n':
      if (!literal (ps, "null"))
        return NULL;
      return value_new (CVJ_NULL);
    default:
      return parse_number (ps);
  }
}

CvjValue *
cvj_parse (const gchar * text, GError ** error)
{
  Parser ps = { text, text, error };
  CvjValue *v = parse_value (&ps, 0);

  if (!v)
    return NULL;
  skip_space (&ps);
  if (*ps.p != '\0') {
    fail (&ps, "text after the value");
    cvj_free (v);
    return NULL;
  }
  return v;
}

const CvjValue *
cvj_get (const CvjValue * value, const gchar * key)
{
  guint i;

  if (!value || value->type != CVJ_OBJECT)
    return NULL;
  for (i = 0; i < value->keys->len; i++)
    if (g_str_equal (g_ptr_array_index (value->keys, i), key))
      return g_ptr_array_index (value->items, i);
  return NULL;
}

const CvjValue *
cvj_index (const CvjValue * value, guint i)
{
  if (!value || value->type != CVJ_ARRAY || i >= value->items->len)
    return NULL;
  return g_ptr_array_index (value->items, i);
}

guint
cvj_length (const CvjValue * value)
{
  if (!value || (value->type != CVJ_ARRAY && value->type != CVJ_OBJECT))
    return 0;
  return value->items->len;
}

gdouble
cvj_number (const CvjValue * value, const gchar * key, gdouble fallback)
{
  const CvjValue *m = cvj_get (value, key);
  return m && m->type == CVJ_NUMBER ? m->number : fallback;
}

const gchar *
cvj_string (const CvjValue * value, const gchar * key)
{
  const CvjValue *m = cvj_get (value, key);
  return m && m->type == CVJ_STRING ? m->string : NULL;
}
