/* sonde --metrics ADDR:PORT: the script's maps at /metrics, in the
 * Prometheus text format (0.0.4) or OpenMetrics 1.0 when the scraper asks
 * for it.  The formatting (metrics_text.c) is pure: map entries in, text
 * out; the server (metrics_server.c) reads the maps from the event loop. */
#pragma once
#include <stdbool.h>
#include <stddef.h>

#include "../runtime/runtime.h"

/* How a map is exposed: its values' kind decides the metric type */
typedef enum MetricForm {
	MF_NONE,      /* no metric form (strings, stacks as keys...): not served */
	MF_COUNTER,   /* count(), sum() */
	MF_GAUGE,     /* avg(), min(), max(), plain integers */
	MF_STATS,     /* stats(): three gauges, _count, _avg and _sum */
	MF_HISTOGRAM, /* hist(), lhist(): cumulative le buckets and _count */
} MetricForm;

/* The form of map m; for MF_NONE, *why says why (for the message) */
MetricForm metrics_form(const MapDesc *m, const char **why);

/* The metric family's name: "sonde_" and the map's name without '@'
 * ("sonde_map" for @) */
void metrics_family(StrBuf *sb, const MapDesc *m);

/* The names a served map's samples take (NULL-terminated, malloc'ed with
 * their strings): two maps must not share one */
char **metrics_sample_names(const MapDesc *m);
void metrics_names_free(char **names);

/* One map's HELP/TYPE lines and samples (entries as map_read gives them);
 * om: OpenMetrics 1.0 (a counter's family name has no _total) */
void metrics_map_write(StrBuf *sb, const OutCtx *o, const MapDesc *m, const MapEntry *e, int n,
		       bool om);

/* sonde's own health, after the maps */
typedef struct MetricsHealth {
	uint64_t lost_events;     /* the event ring was full */
	uint64_t failed_updates;  /* map updates that failed (map full or busy) */
	uint64_t probes;          /* probes attached */
} MetricsHealth;
void metrics_health_write(StrBuf *sb, const MetricsHealth *h, bool om);

/* The label name of element i of a map key: a 0.26 record's field name,
 * else key0, key1...  A field name the format reserves (Prometheus: "le"
 * on histogram buckets, names starting "__") becomes key_NAME. */
void metrics_key_name(char *buf, size_t len, const Type *key, int i);

/* A label value as the format requires: \\ \" \n escaped, bytes that are
 * not UTF-8 as the text \xNN */
void metrics_label_escape(StrBuf *sb, const char *s, size_t n);

typedef struct MetricsServer MetricsServer;

/* Parses ADDR:PORT (":PORT" and "PORT": loopback; "[::1]:PORT"; a host
 * name; PORT 0: any free port, told on stderr); NULL with err filled */
MetricsServer *metrics_server_new(const char *spec, bool quiet, char *err, size_t errlen);
/* The hooks runtime_run calls (RunOpts.service) */
const RunService *metrics_server_service(MetricsServer *s);
void metrics_server_free(MetricsServer *s);
