export const PRODUCT_NAME = 'Vigie';
export const API_BASE_URL = '/api';
export const TOKEN_STORAGE_KEY = 'vigie_token';
export const DEFAULT_AFTER_LOGIN = '/dashboard';
export const DASHBOARD_SKELETON_COUNT = 8;
export const GLITCH_INTERVAL_MS = 3000;
export const GLITCH_DURATION_MS = 150;
