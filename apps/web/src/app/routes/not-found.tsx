import { ERROR_CONTENT } from '@/features/errors/error-content';
import { ErrorPage } from '@/features/errors/components/error-page';

export default function NotFoundRoute() {
  return <ErrorPage content={ERROR_CONTENT['404']} />;
}
