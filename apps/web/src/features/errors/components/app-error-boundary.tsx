import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ERROR_CONTENT } from '../error-content';
import { ErrorPage } from './error-page';

type AppErrorBoundaryProps = {
  children: ReactNode;
  /** A change (a new navigation) clears the error. */
  resetKey?: string;
};

type AppErrorBoundaryState = { error: unknown; resetKey: string | undefined };

function technicalMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** The application's safety net: an uncaught rendering error shows the 500 page. */
export class AppErrorBoundary extends Component<AppErrorBoundaryProps, AppErrorBoundaryState> {
  override state: AppErrorBoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<AppErrorBoundaryState> {
    return { error: error ?? new Error('Unexpected error') };
  }

  static getDerivedStateFromProps(props: AppErrorBoundaryProps, state: AppErrorBoundaryState): Partial<AppErrorBoundaryState> | null {
    if (props.resetKey !== state.resetKey) return { error: null, resetKey: props.resetKey };
    return null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Erreur inattendue', error, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.error) {
      return (
        <ErrorPage
          content={ERROR_CONTENT['500']}
          title="Erreur Inattendue"
          description="Une erreur inattendue a interrompu l’affichage de cette page. Retournez à l’accueil ou rechargez la page."
          technicalMessage={technicalMessage(this.state.error)}
        />
      );
    }
    return this.props.children;
  }
}
