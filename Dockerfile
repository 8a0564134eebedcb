# TicketLedger as a Hugging Face Docker Space (or on any container host).
#   docker build -t ticketledger .
#   docker run -p 7860:7860 -v ticketledger-data:/data ticketledger
# The event log is an SQLite file in the /data volume (Spaces mount persistent storage there);
# point DATABASE_URL at PostgreSQL to run several workers (`--workers N`).
# The server listens on 0.0.0.0, so its audit surface (audit routes, /ui, fork, regrade, export)
# stays off (403) until a token is set: `docker run -e TICKETLEDGER_AUDIT_TOKEN=<secret> ...`, or a
# Space secret of that name; then send `Authorization: Bearer <secret>` (docs/security.md).
# Serving under a name other than localhost or *.hf.space: add it to TICKETLEDGER_ALLOWED_HOSTS.
# The image holds exactly the versions in uv.lock, hash-checked: `uv export` turns the lock into a
# requirements file, pip installs it without resolving anything, then the project itself.
# No Docker engine runs where this project is developed: tests/e2e/test_packaging_docker.py runs this
# file's install and start commands in a fresh virtual environment instead.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PORT=7860 \
    DATABASE_URL=sqlite:////data/ticketledger.db

# Spaces run the container as uid 1000; only /data needs to be writable.
RUN useradd --create-home --uid 1000 app && mkdir -p /data && chown app:app /data

WORKDIR /app
COPY . /app
RUN pip install uv==0.13.9 \
    && uv export --frozen --no-dev --extra postgres --no-emit-project --output-file locked.txt \
    && pip install --no-deps --require-hashes -r locked.txt \
    && pip install --no-deps . \
    && pip uninstall -y uv && rm locked.txt \
    && pip check

USER app
VOLUME ["/data"]
EXPOSE 7860
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:' + os.environ.get('PORT', '7860') + '/health', timeout=4)"]
CMD ["ticketledger", "serve", "--host", "0.0.0.0"]
