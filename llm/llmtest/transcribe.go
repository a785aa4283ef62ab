package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// Transcription is what the server received in one /v1/audio/transcriptions call.
type Transcription struct {
	Model    string
	Filename string
	Audio    []byte
	Auth     string
}

// Transcriber decides the answer to a transcription: the text, or a non-200 status.
type Transcriber func(req Transcription) (text string, status int)

// OnTranscription makes the server answer /v1/audio/transcriptions (multipart, as OpenAI's
// speech-to-text endpoint) with f.
func (s *Server) OnTranscription(f Transcriber) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.transcriber = f
}

// Transcriptions returns the transcription requests received so far.
func (s *Server) Transcriptions() []Transcription {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Transcription(nil), s.transcriptions...)
}

func (s *Server) serveTranscription(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	f := s.transcriber
	s.mu.Unlock()
	if f == nil {
		http.Error(w, `{"error":{"message":"no transcription model here","type":"invalid_request_error"}}`, http.StatusNotFound)
		return
	}
	if err := r.ParseMultipartForm(64 << 20); err != nil {
		http.Error(w, `{"error":{"message":"bad multipart body","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return
	}
	file, hdr, err := r.FormFile("file")
	if err != nil {
		http.Error(w, `{"error":{"message":"no file","type":"invalid_request_error"}}`, http.StatusBadRequest)
		return
	}
	audio, _ := io.ReadAll(file)
	req := Transcription{Model: r.FormValue("model"), Filename: hdr.Filename, Audio: audio, Auth: r.Header.Get("Authorization")}
	s.mu.Lock()
	s.transcriptions = append(s.transcriptions, req)
	s.mu.Unlock()
	text, status := f(req)
	w.Header().Set("Content-Type", "application/json")
	if status != 0 && status != http.StatusOK {
		w.WriteHeader(status)
		fmt.Fprintf(w, `{"error":{"message":"scripted %d","type":"server_error"}}`, status)
		return
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"text": text, "language": "english", "task": "transcribe"})
}
