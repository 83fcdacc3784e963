/* gst-cudavision core: error reporting shared by every algorithm.
 *
 * Every core function that can fail returns a CvStatus and, when the caller
 * passes a CvError, fills it with a message that names what failed (for a
 * CUDA failure: the call and the CUDA error string).  The GStreamer side
 * turns that message into a GST_ELEMENT_ERROR; nothing in the core aborts.
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CV_ERROR_H
#define CV_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  CV_OK = 0,
  CV_ERROR_INVALID_ARGUMENT,    /* a parameter or size the algorithm cannot take */
  CV_ERROR_OUT_OF_MEMORY,       /* host allocation failed */
  CV_ERROR_CUDA,                /* a CUDA runtime call or a kernel launch failed */
  CV_ERROR_UNSUPPORTED,         /* valid request this build cannot serve (e.g. no CUDA) */
} CvStatus;

#define CV_ERROR_MESSAGE_SIZE 256

typedef struct
{
  CvStatus status;
  int cuda_code;                /* the cudaError_t value when status == CV_ERROR_CUDA */
  char message[CV_ERROR_MESSAGE_SIZE];
} CvError;

/* Records a failure in @err (when not NULL) and returns @status, so a
 * function can write `return cv_error_set (err, CV_ERROR_..., "...", ...);`.
 * The first error recorded wins: later calls do not overwrite it. */
CvStatus cv_error_set (CvError * err, CvStatus status, const char *format, ...)
#if defined(__GNUC__)
    __attribute__ ((format (printf, 3, 4)))
#endif
    ;

void cv_error_clear (CvError * err);

const char *cv_status_name (CvStatus status);

#ifdef __cplusplus
}
#endif
#endif /* CV_ERROR_H */
