/**
 * An audio widget's input: a file from disk or a recording from the microphone, with a player to
 * hear it before it is sent. Uploads are checked with the gateway's sniffer and limits first.
 * Recording asks for permission (the page's Permissions-Policy allows the microphone for this
 * origin only, ADR 0013) and says plainly when it is refused or there is no microphone.
 */
import { type ChangeEvent, useEffect, useId, useRef, useState } from "react";
import { checkBlob } from "#app/demos/shared/media-file.ts";
import { microphoneErrorMessage, recordingFileName, recordingType, recordingUnsupported } from "#app/demos/shared/microphone.ts";
import { useObjectUrl } from "#app/demos/shared/object-url.ts";
import { formatBytes } from "#app/demos/shared/run-inference.ts";

const buttonCls = "rounded-md border border-gray-300 px-2.5 py-1 text-xs font-medium text-gray-800 hover:bg-gray-50 disabled:opacity-50 dark:border-gray-700 dark:text-gray-100 dark:hover:bg-gray-900";

interface Recording {
  recorder: MediaRecorder;
  stream: MediaStream;
  startedAt: number;
}

export function AudioInput({ value, onChange, disabled = false }: { value: File | null; onChange: (file: File | null) => void; disabled?: boolean }) {
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [recording, setRecording] = useState<Recording | null>(null);
  const [seconds, setSeconds] = useState(0);
  const [cannotRecord, setCannotRecord] = useState<string | null>(null);
  const url = useObjectUrl(value);
  const live = useRef<Recording | null>(null);

  useEffect(() => {
    setCannotRecord(
      recordingUnsupported({ secure: window.isSecureContext, hasMediaDevices: typeof navigator.mediaDevices?.getUserMedia === "function", hasMediaRecorder: typeof MediaRecorder === "function" }),
    );
    // Leaving the page mid-recording releases the microphone.
    return () => live.current?.stream.getTracks().forEach((t) => t.stop());
  }, []);

  useEffect(() => {
    if (!recording) return;
    const timer = window.setInterval(() => setSeconds(Math.floor((performance.now() - recording.startedAt) / 1000)), 250);
    return () => window.clearInterval(timer);
  }, [recording]);

  async function accept(file: File) {
    const check = await checkBlob(file, ["audio"]);
    if (!check.ok) {
      setProblem(check.message);
      return;
    }
    setProblem(null);
    onChange(file);
  }

  function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (file) void accept(file);
  }

  async function startRecording() {
    setProblem(null);
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (error) {
      setProblem(microphoneErrorMessage(error));
      return;
    }
    try {
      const type = recordingType((t) => MediaRecorder.isTypeSupported(t));
      const recorder = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
      const parts: Blob[] = [];
      recorder.ondataavailable = (e) => {
        if (e.data.size > 0) parts.push(e.data);
      };
      recorder.onstop = () => {
        stream.getTracks().forEach((t) => t.stop());
        live.current = null;
        setRecording(null);
        const mime = recorder.mimeType || type || "audio/webm";
        const blob = new Blob(parts, { type: mime });
        if (blob.size === 0) setProblem("The recording is empty: the microphone sent no sound.");
        else void accept(new File([blob], recordingFileName(mime), { type: mime }));
      };
      recorder.start();
      const started = { recorder, stream, startedAt: performance.now() };
      live.current = started;
      setSeconds(0);
      setRecording(started);
    } catch (error) {
      stream.getTracks().forEach((t) => t.stop());
      setProblem(microphoneErrorMessage(error));
    }
  }

  return (
    <fieldset className="space-y-2" data-audio-input="" disabled={disabled}>
      <legend className="mb-1 text-xs font-medium text-gray-700 dark:text-gray-300">Audio</legend>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-file`} className={`${buttonCls} cursor-pointer`}>
          Upload a file
        </label>
        <input id={`${id}-file`} name="audio-file" type="file" accept="audio/*,.flac,.wav,.mp3,.ogg,.webm,.m4a" onChange={onFile} className="sr-only" />
        {recording ? (
          <button type="button" onClick={() => recording.recorder.stop()} className={`${buttonCls} border-red-400 text-red-800 dark:border-red-700 dark:text-red-200`} data-recording="">
            Stop recording ({seconds} s)
          </button>
        ) : (
          <button type="button" onClick={() => void startRecording()} disabled={cannotRecord !== null} className={buttonCls} aria-describedby={cannotRecord ? `${id}-why` : undefined}>
            Record from microphone
          </button>
        )}
        {value && !recording ? (
          <button type="button" onClick={() => onChange(null)} className={buttonCls}>
            Remove
          </button>
        ) : null}
      </div>
      {cannotRecord ? (
        <p id={`${id}-why`} className="text-xs text-gray-600 dark:text-gray-400">
          {cannotRecord}
        </p>
      ) : null}
      {problem ? (
        <p role="alert" data-audio-problem="" className="rounded border border-amber-300 bg-amber-50 px-2 py-1 text-xs text-amber-950 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100">
          {problem}
        </p>
      ) : null}
      {value && url ? (
        <div className="space-y-1" data-audio-chosen={value.name}>
          <p className="text-xs text-gray-700 dark:text-gray-300">
            {value.name} · {formatBytes(value.size)}
          </p>
          <audio controls src={url} className="w-full" aria-label={`The audio to send: ${value.name}`} />
        </div>
      ) : !recording ? (
        <p className="text-xs text-gray-600 dark:text-gray-400">No audio yet: upload a recording (WAV, FLAC, MP3, Ogg, WebM) or record one.</p>
      ) : null}
    </fieldset>
  );
}
