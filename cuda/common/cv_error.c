/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "cv_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

CvStatus
cv_error_set (CvError * err, CvStatus status, const char *format, ...)
{
  va_list args;

  if (err == NULL || err->status != CV_OK)
    return status;

  err->status = status;
  va_start (args, format);
  vsnprintf (err->message, sizeof (err->message), format, args);
  va_end (args);
  return status;
}

void
cv_error_clear (CvError * err)
{
  if (err == NULL)
    return;
  err->status = CV_OK;
  err->cuda_code = 0;
  err->message[0] = '\0';
}

const char *
cv_status_name (CvStatus status)
{
  switch (status) {
    case CV_OK:
      return "ok";
    case CV_ERROR_INVALID_ARGUMENT:
      return "invalid argument";
    case CV_ERROR_OUT_OF_MEMORY:
      return "out of memory";
    case CV_ERROR_CUDA:
      return "CUDA error";
    case CV_ERROR_UNSUPPORTED:
      return "unsupported";
  }
  return "unknown";
}
