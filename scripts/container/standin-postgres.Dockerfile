# A stand-in for postgres:15-bookworm, built by scripts/container/standins.sh on machines that
# cannot pull it: Debian bookworm (minbase) with Debian's postgresql-15 (pg_trgm included) and an
# entrypoint that honours the official image's POSTGRES_PASSWORD, POSTGRES_USER, POSTGRES_DB and PGDATA.
ARG BASE
FROM ${BASE}
RUN set -eu; \
    apt-get update -qq; \
    apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null; \
    rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb; \
    rm -rf /var/lib/postgresql/15 /etc/postgresql/15; \
    mkdir -p /var/lib/postgresql/data /var/run/postgresql; \
    chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql; \
    chmod 3777 /var/run/postgresql
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
VOLUME /var/lib/postgresql/data
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
