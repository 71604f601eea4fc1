/* LibreDNN's own additions to the cuDNN API, exported by libcudnn_ops_infer.so.8 only. */
#ifndef LIBREDNN_LIBREDNN_H_
#define LIBREDNN_LIBREDNN_H_

#if defined(__cplusplus)
extern "C" {
#endif

/* LibreDNN's version, e.g. "0.1.0 (cuDNN API 8.9.7)"; cudnnGetVersion() gives the API level (8907). */
const char *librednnGetVersionString(void);

/* The identity of the build this ops_infer comes from: 16 hex digits, the same in all seven libraries
 * of one build. The other sub-libraries' cudnn*VersionCheck compare theirs with it. */
const char *librednnGetBuildId(void);

#if defined(__cplusplus)
}
#endif

#endif /* LIBREDNN_LIBREDNN_H_ */
