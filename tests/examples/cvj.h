/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A small JSON reader for the example tests: parses one JSON text (RFC 8259)
 * into a tree, so the tests can check cv-json's output without json-glib.
 * Not installed; not a general-purpose library (no streaming, numbers as
 * doubles, \u escapes outside ASCII become '?'). */
#ifndef CVJ_H
#define CVJ_H

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  CVJ_NULL,
  CVJ_BOOL,
  CVJ_NUMBER,
  CVJ_STRING,
  CVJ_ARRAY,
  CVJ_OBJECT,
} CvjType;

typedef struct _CvjValue CvjValue;
struct _CvjValue
{
  CvjType type;
  gboolean boolean;             /* CVJ_BOOL */
  gdouble number;               /* CVJ_NUMBER */
  gchar *string;                /* CVJ_STRING */
  GPtrArray *items;             /* CVJ_ARRAY and CVJ_OBJECT: CvjValue * */
  GPtrArray *keys;              /* CVJ_OBJECT: gchar *, same order as items */
};

/* Parses @text, which must hold exactly one JSON value (white space around
 * it allowed).  Returns NULL and sets @error (with the byte offset) when
 * the text is not JSON. */
CvjValue *cvj_parse (const gchar * text, GError ** error);
void cvj_free (CvjValue * value);

/* The member @key of an object, or NULL (also when @value is NULL or not
 * an object). */
const CvjValue *cvj_get (const CvjValue * value, const gchar * key);
/* Element @i of an array, or NULL. */
const CvjValue *cvj_index (const CvjValue * value, guint i);
/* Elements of an array or members of an object; 0 otherwise. */
guint cvj_length (const CvjValue * value);

/* Shorthands: the member's number / string, @fallback when it is absent or
 * of another type. */
gdouble cvj_number (const CvjValue * value, const gchar * key,
    gdouble fallback);
const gchar *cvj_string (const CvjValue * value, const gchar * key);

G_END_DECLS
#endif /* CVJ_H */
