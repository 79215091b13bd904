/**
 * Uploaded hand histories: get_upload_link, upload_hand_history, find_hands, get_hand_results,
 * list_my_sessions, get_session_summary, get_tournament_results, list_my_opponents, get_opponent_notes,
 * get_opponent_limp_range.
 *
 * Every tool needs the caller's key (not counted on its meter) and reads only the hands stored under that
 * key. The analysis is @ranges/hand-analysis's; these modules check arguments, page, and shape answers. The
 * analysis tools answer in the envelope `{ schemaVersion "1.0", coverage, context, result, warnings }`.
 *
 * This module lists the family in registration order; each tool (or small family) lives in its own module.
 */

import { findHands } from "./find.js";
import { getOpponentLimpRange, getOpponentNotes, listMyOpponents } from "./opponents.js";
import { getHandResults, getTournamentResults } from "./results.js";
import { getSessionSummary, listMySessions } from "./sessions.js";
import { getUploadLink, uploadHandHistory } from "./uploads.js";

export const HAND_TOOLS = [
  getUploadLink,
  uploadHandHistory,
  findHands,
  getHandResults,
  listMySessions,
  getSessionSummary,
  getTournamentResults,
  listMyOpponents,
  getOpponentNotes,
  getOpponentLimpRange,
] as const;
