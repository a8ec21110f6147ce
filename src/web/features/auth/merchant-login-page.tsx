import { Anchor } from '@mantine/core';
import { Link } from 'react-router';
import { AuthLayout } from './auth-layout';
import { LoginForm } from './login-form';

/** Spec: 'Login As Merchant' with Email, password, SIGN IN and a Forgot password link. */
export function MerchantLoginPage() {
  return (
    <AuthLayout
      title="Login As Merchant"
      subtitle="For merchant (enterprise) accounts. Use the email your administrator registered."
      footer={
        <>
          Not a merchant?{' '}
          <Anchor component={Link} to="/login" fw={600}>
            Log in to your Dialflow account
          </Anchor>
        </>
      }
    >
      <LoginForm variant="merchant" />
    </AuthLayout>
  );
}
